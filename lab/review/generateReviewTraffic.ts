/**
 * Generated review traffic with known truth, for `decisions calibrate --simulate-budget`: a small
 * policy and a labelled export in which every item is labelled — the fallbacks as the console
 * labels them, every decided item as an audit item at rate 1 — so that a replay can draw any
 * audit design from it and compare what each recovers with what all labels say.
 */
import { seededUniform } from "../../core/common/SeededRandom.js";

/** The labels of the generated policy's one question. */
export const TRAFFIC_LABELS = ["billing", "technical", "account", "other"] as const;

/** Options of {@link generateReviewTraffic}; every field has a default. */
export interface ReviewTrafficOptions {
  /** Items (time order = file order). Default 20000. */
  items?: number;
  /** Seed of the draws. Default 1. */
  seed?: number;
  /** The policy's threshold. Default 0.8. */
  threshold?: number;
  /** Temperature of the truth: labels are drawn from softmax(logit / T) while the model answers softmax(logit); T > 1 makes the model over-confident. Default 1.1. */
  truthTemperature?: number;
  /** Standard deviation of the logits. Default 4. */
  scale?: number;
}

/** What {@link generateReviewTraffic} returns. */
export interface ReviewTraffic {
  /** The policy file's text (`review-budget.yaml`). */
  policy: string;
  /** The labelled export, one JSON line per item. */
  labelled: string;
  /** How many items were decided (audited at rate 1) and how many fell back. */
  decided: number;
  fallbacks: number;
}

/**
 * Draws `items` work items: per item logits N(0, scale²) over {@link TRAFFIC_LABELS}, the model's
 * distribution softmax(logit), the true label drawn from softmax(logit / truthTemperature). An item
 * whose top probability reaches the threshold is decided (an audit line, rate 1), else it falls
 * back (a fallback line). Deterministic for a seed.
 */
export function generateReviewTraffic(options: ReviewTrafficOptions = {}): ReviewTraffic {
  const count = options.items ?? 20_000;
  const threshold = options.threshold ?? 0.8;
  const temperature = options.truthTemperature ?? 1.1;
  const scale = options.scale ?? 4;
  const random = seededUniform(options.seed ?? 1);
  const start = Date.UTC(2026, 11, 1);
  const lines: string[] = [];
  let decided = 0;
  for (let index = 0; index < count; index += 1) {
    const logits = TRAFFIC_LABELS.map(() => scale * normal(random));
    const model = softmax(logits, 1);
    const truth = softmax(logits, temperature);
    const label = TRAFFIC_LABELS[sample(random, truth)] ?? "other";
    const top = model.indexOf(Math.max(...model));
    const answer = TRAFFIC_LABELS[top] ?? "other";
    const isDecided = (model[top] ?? 0) >= threshold;
    if (isDecided) decided += 1;
    lines.push(
      JSON.stringify({
        policy: "review-budget",
        id: `g-${String(index).padStart(6, "0")}`,
        policy_version: "1",
        reviewed_at: new Date(start + index * 1000).toISOString(),
        ...(isDecided ? { audit: { rate: 1 } } : {}),
        questions: {
          route: {
            distribution: Object.fromEntries(TRAFFIC_LABELS.map((name, at) => [name, round(model[at] ?? 0)])),
            label,
            model_answer: answer,
          },
        },
      }),
    );
  }
  const policy = `name: review-budget
version: "1"
description: Generated traffic for the review budget simulation (lab/review/generateReviewTraffic.ts).
audit_strata:
  - {below: ${round(threshold + (1 - threshold) / 4)}, rate: 0.4}
  - {below: ${round(threshold + (1 - threshold) / 2)}, rate: 0.2}
  - {rate: 0.1}
questions:
  route:
    type: choice
    instructions: Which team should handle the ticket?
    criteria: [${TRAFFIC_LABELS.join(", ")}]
    threshold: ${threshold}
    fallback: other
`;
  return { policy, labelled: `${lines.join("\n")}\n`, decided, fallbacks: count - decided };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function softmax(logits: readonly number[], temperature: number): number[] {
  const scaled = logits.map((value) => value / temperature);
  const top = Math.max(...scaled);
  const weights = scaled.map((value) => Math.exp(value - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight) => weight / sum);
}

function sample(random: () => number, probabilities: readonly number[]): number {
  let u = random();
  for (const [index, p] of probabilities.entries()) {
    u -= p;
    if (u < 0) return index;
  }
  return probabilities.length - 1;
}

/** A standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
