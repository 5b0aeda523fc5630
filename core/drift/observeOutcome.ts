import type { StoredOutcome } from "../../contract/outcome/OutcomeSchema.js";

/** One question's answer in one outcome, as drift looks at it. */
export interface DriftObservation {
  question: string;
  /** When the outcome was decided (`created_at`), milliseconds since the epoch. */
  at: number;
  /** The model's answer: its most probable label (whatever a rule, the fallback or a person set). */
  answer: string;
  /** The model's probability of that label (its top probability). */
  confidence: number;
  /** Every label the model's distribution names (the question's options, unless it was cut). */
  labels: readonly string[];
  /** A person's answer to the question, when one reviewed it. */
  reviewed?: string;
}

/**
 * The observations of one outcome, one per question with a distribution: the model's top label
 * and probability, and a person's answer where one stands (`source: "human"`) or the newest review
 * gave one. A rejected outcome (no answers) gives none. The model's own answer is what drift
 * follows: a fallback or a rule hides it, and a change in what the model says is the signal.
 */
export function observeOutcome(outcome: StoredOutcome): DriftObservation[] {
  const at = Date.parse(outcome.created_at);
  if (Number.isNaN(at)) return [];
  const observations: DriftObservation[] = [];
  for (const [question, answer] of Object.entries(outcome.answers ?? {})) {
    const top = topLabel(answer.distribution);
    if (top === undefined) continue;
    const person = answer.source === "human" ? answer.answer : outcome.review?.answers[question];
    observations.push({
      question,
      at,
      answer: top.label,
      confidence: top.p,
      labels: Object.keys(answer.distribution),
      ...(person === undefined ? {} : { reviewed: String(person) }),
    });
  }
  return observations;
}

function topLabel(distribution: Readonly<Record<string, number>>): { label: string; p: number } | undefined {
  let best: { label: string; p: number } | undefined;
  for (const [label, p] of Object.entries(distribution)) {
    if (Number.isFinite(p) && (best === undefined || p > best.p)) best = { label, p };
  }
  return best;
}
