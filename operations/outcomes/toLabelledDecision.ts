import type { StoredOutcome } from "../../core/outcomes/index.js";
import type { AnswerValue, Policy } from "../../core/policy/index.js";

/** One question of a labelled decision: the format `decisions calibrate` reads (evaluation/README.md). */
export interface LabelledAnswer {
  /** The distribution the outcome recorded (after the policy's temperature). */
  distribution: Record<string, number>;
  /** The human's answer. */
  label: AnswerValue;
  /** The temperature the policy applied when it decided, when known. */
  temperature?: number;
  /** What the model answered. */
  model_answer?: AnswerValue;
}

/** One line of labelled data: a reviewed item and, per question a human answered, the model's distribution. */
export interface LabelledDecision {
  policy: string;
  id: string;
  policy_version?: string | number;
  reviewed_by?: string;
  reviewed_at?: string;
  /** Set on an audit item: its probability of being audited (its labels weigh 1/rate). */
  audit?: { rate: number };
  questions: Record<string, LabelledAnswer>;
}

/**
 * The labelled-data line of a reviewed outcome, or undefined when no question of it has a human
 * answer. Per question a person answered: the recorded distribution, the person's answer as
 * `label`, the model's own answer, and the temperature the policy applied — taken from `policy`
 * only when the outcome was decided under exactly that policy file (same sha256), since a
 * calibrated policy changes the temperature from one version to the next; otherwise left out
 * (`calibrate` then refuses the line unless the policy version matches). An audit item carries
 * its audit rate, which `calibrate` weights its labels by.
 */
export function toLabelledDecision(outcome: StoredOutcome, policy?: Policy): LabelledDecision | undefined {
  const sameFile =
    policy !== undefined && outcome.policy_sha256 !== undefined && outcome.policy_sha256 === policy.sha256;
  const questions: Record<string, LabelledAnswer> = {};
  for (const [qid, answer] of Object.entries(outcome.answers ?? {})) {
    if (answer.source !== "human") continue;
    const entry: LabelledAnswer = { distribution: { ...answer.distribution }, label: answer.answer };
    if (sameFile) entry.temperature = policy.question(qid)?.temperature ?? 1;
    if (answer.model_answer !== undefined) entry.model_answer = answer.model_answer;
    questions[qid] = entry;
  }
  if (Object.keys(questions).length === 0) return undefined;
  return {
    policy: outcome.policy,
    id: outcome.id,
    ...(outcome.policy_version !== undefined ? { policy_version: outcome.policy_version } : {}),
    ...(outcome.review?.by !== undefined ? { reviewed_by: outcome.review.by } : {}),
    ...(outcome.review?.at !== undefined ? { reviewed_at: outcome.review.at } : {}),
    ...(outcome.audit !== undefined ? { audit: { rate: outcome.audit.rate } } : {}),
    questions,
  };
}
