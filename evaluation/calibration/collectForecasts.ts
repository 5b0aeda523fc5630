import { applyTemperature } from "../../core/policy/applyTemperature.js";
import type { Policy } from "../../core/policy/Policy.js";
import { predictedLabel } from "../metrics/predictedLabel.js";
import type { Forecast } from "../metrics/types.js";
import { LabelledDataError, type LabelledDataProblem } from "./errors.js";
import type { LabelledLine } from "./readLabelledDecisions.js";

/** How far a recorded distribution's sum may exceed 1 (rounding in JSON). */
const SUM_TOLERANCE = 1e-3;

/** One labelled decision of one question, ready for calibration. */
export interface LabelledForecast {
  /** The work item's id. */
  id: string;
  /** The line it came from. */
  line: number;
  /** The distribution as the policy produced it (with the temperature it applied). */
  recorded: Forecast;
  /** The distribution as the model returned it (that temperature undone: p^T, renormalised). */
  raw: Forecast;
  /** The temperature the policy had applied. */
  applied_temperature: number;
  /**
   * How many items of the policy this label stands for: the inverse of its probability of reaching
   * a person — 1 for a fallback (every one is reviewed), 1/`audit.rate` for an audit item. Also
   * set on `recorded` and `raw`, so that every fit and metric is weighted.
   */
  weight: number;
  /** Set on an audit item's label: the answer that stood automatically, and whether the person agreed. */
  audit?: { rate: number; automated_answer: string; correct: boolean };
}

/** What {@link collectForecasts} returns. */
export interface CollectedForecasts {
  /** Question id → its labelled forecasts, in file order; questions in the policy's order. */
  questions: Map<string, LabelledForecast[]>;
  /** Lines of other policies, skipped. */
  other_policy_lines: number;
}

/**
 * Turns labelled lines into forecasts over a policy's questions, in the policy's label order.
 * A distribution lacking some labels (cut to its most probable ones) gets the missing mass spread
 * evenly over them; every distribution is renormalised. The policy's temperature is undone so the
 * fit starts from what the model returned (see `temperature` in the labelled format). Each
 * forecast is weighted by the inverse of its probability of being labelled (see
 * {@link LabelledForecast.weight}).
 *
 * @param only calibrate this question only (its lines' other questions are ignored)
 * @throws LabelledDataError with every problem: an unknown question or label, a distribution
 *   over other labels or summing above 1, an unknown temperature
 */
export function collectForecasts(
  policy: Policy,
  lines: readonly LabelledLine[],
  only?: string,
): CollectedForecasts {
  const problems: LabelledDataProblem[] = [];
  const questions = new Map<string, LabelledForecast[]>(
    policy.questions.filter((question) => only === undefined || question.id === only).map((q) => [q.id, []]),
  );
  let otherPolicy = 0;
  for (const { line, decision } of lines) {
    if (decision.policy !== policy.name) {
      otherPolicy += 1;
      continue;
    }
    for (const [id, answer] of Object.entries(decision.questions)) {
      if (only !== undefined && id !== only) continue;
      const question = policy.question(id);
      const target = questions.get(id);
      const path = ["questions", id];
      if (question === undefined || target === undefined) {
        problems.push({ line, path, message: `policy ${policy.name} has no question "${id}"` });
        continue;
      }
      const labels = question.labels;
      const extra = Object.keys(answer.distribution).filter((label) => !labels.includes(label));
      if (extra.length > 0) {
        problems.push({
          line,
          path: [...path, "distribution"],
          message: `labels ${extra.join(", ")} are not offered by "${id}" (${labels.join(", ")})`,
        });
        continue;
      }
      const expected = String(answer.label);
      if (!labels.includes(expected)) {
        problems.push({
          line,
          path: [...path, "label"],
          message: `${JSON.stringify(answer.label)} is not an answer of "${id}" (${labels.join(", ")})`,
        });
        continue;
      }
      const given = labels.map((label) => answer.distribution[label]);
      const sum = given.reduce<number>((acc, p) => acc + (p ?? 0), 0);
      const missing = given.filter((p) => p === undefined).length;
      if (sum > 1 + SUM_TOLERANCE || (missing === 0 && sum < 1 - SUM_TOLERANCE) || sum <= 0) {
        problems.push({ line, path: [...path, "distribution"], message: `probabilities sum to ${sum}` });
        continue;
      }
      const fill = missing > 0 ? Math.max(0, 1 - sum) / missing : 0;
      const completed = given.map((p) => p ?? fill);
      const total = completed.reduce((acc, p) => acc + p, 0);
      const probabilities = completed.map((p) => p / total);
      const applied = appliedTemperature(policy, id, answer.temperature, decision.policy_version);
      if (applied === undefined) {
        problems.push({
          line,
          path: [...path, "temperature"],
          message: `decided under policy version ${decision.policy_version}, not the file's ${policy.version}, and no temperature is given: the distribution's temperature is unknown`,
        });
        continue;
      }
      const weight = decision.audit === undefined ? 1 : 1 / decision.audit.rate;
      const recorded: Forecast = { labels, probabilities, expected, weight };
      const forecast: LabelledForecast = {
        id: decision.id,
        line,
        recorded,
        raw: { labels, probabilities: applyTemperature(probabilities, 1 / applied), expected, weight },
        applied_temperature: applied,
        weight,
      };
      if (decision.audit !== undefined) {
        // What stood automatically: the model's answer the review kept, else the recorded argmax.
        const automated =
          answer.model_answer === undefined
            ? (predictedLabel(recorded, "first-offered") ?? "")
            : String(answer.model_answer);
        forecast.audit = {
          rate: decision.audit.rate,
          automated_answer: automated,
          correct: automated === expected,
        };
      }
      target.push(forecast);
    }
  }
  if (problems.length > 0) throw new LabelledDataError(problems);
  return { questions, other_policy_lines: otherPolicy };
}

function appliedTemperature(
  policy: Policy,
  id: string,
  given: number | undefined,
  version: string | number | undefined,
): number | undefined {
  if (given !== undefined) return given;
  if (version !== undefined && String(version) !== policy.version) return undefined;
  return policy.question(id)?.temperature ?? 1;
}
