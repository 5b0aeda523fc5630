import type { JobResultLine } from "../../contract/jobs/JobResultLineSchema.js";
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";

/**
 * The results line of an input line from the outcome that stands for it: per question the answer
 * and its probability, the reason when there is one. `duplicate` marks a line whose id already
 * had that outcome before this line came.
 */
export function resultLineOf(line: number, outcome: Outcome, duplicate = false): JobResultLine {
  const answers =
    outcome.answers === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(outcome.answers).map(([question, answer]) => [
            question,
            { answer: answer.answer, probability: answer.probability },
          ]),
        );
  return {
    line,
    id: outcome.id,
    policy: outcome.policy,
    status: outcome.status,
    ...(answers !== undefined ? { answers } : {}),
    ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    ...(duplicate ? { duplicate: true as const } : {}),
  };
}
