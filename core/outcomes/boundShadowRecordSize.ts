import type { OutcomeAnswer } from "../../contract/outcome/OutcomeSchema.js";
import { MAX_OUTCOME_BYTES, TRUNCATED_DISTRIBUTION_LABELS } from "../../contract/outcome/outcomeLimits.js";
import type { ShadowRecord } from "../../contract/outcome/ShadowRecordSchema.js";
import { jsonBytes } from "./boundOutcomeSize.js";

/**
 * A shadow record kept within {@link MAX_OUTCOME_BYTES} as an outcome is: when larger, each
 * answer's distribution is cut to its {@link TRUNCATED_DISTRIBUTION_LABELS} most probable labels
 * (the answer's own label kept), then to the answer's own label alone, and marked
 * `distribution_truncated`. Answers, probabilities, status and rules are never cut.
 */
export function boundShadowRecordSize(record: ShadowRecord, maxBytes = MAX_OUTCOME_BYTES): ShadowRecord {
  const answers = record.result?.answers;
  if (record.result === undefined || answers === undefined) return record;
  let bounded = record;
  for (const labels of [TRUNCATED_DISTRIBUTION_LABELS, 0]) {
    if (jsonBytes(bounded) <= maxBytes) break;
    const cut = Object.fromEntries(
      Object.entries(answers).map(([qid, answer]) => [qid, cutDistribution(answer, labels)]),
    );
    bounded = { ...record, result: { ...record.result, answers: cut } };
  }
  return bounded;
}

function cutDistribution(answer: OutcomeAnswer, labels: number): OutcomeAnswer {
  const entries = Object.entries(answer.distribution);
  if (entries.length <= Math.max(labels, 1)) return answer;
  const kept = entries.sort((a, b) => b[1] - a[1]).slice(0, labels);
  const own = answer.distribution[String(answer.answer)];
  if (own !== undefined && !kept.some(([label]) => label === String(answer.answer)))
    kept.push([String(answer.answer), own]);
  return { ...answer, distribution: Object.fromEntries(kept), distribution_truncated: true };
}
