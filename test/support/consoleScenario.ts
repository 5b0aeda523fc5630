/**
 * Outcomes for the review console's readability tests (`test/console/reviewConsoleReadable…`):
 * decided and waiting outcomes of the repository's policies with answers as the decide function
 * stores them (the model's distribution over every option, the threshold, the fallback where the
 * model was below it), spread over the drift window and its baseline so that every option of
 * batch-classification's 12 and ticket-routing's 8 appears in the pictures.
 */
import type { StoredOutcome } from "../../core/outcomes/index.js";
import type { Policy, PolicySet } from "../../core/policy/index.js";

/** The model's top label and its probability, per question. */
export type Tops = Record<string, { label: string; p: number }>;

/**
 * An outcome of `policy` decided at `at` whose model gave each question of `tops` its label with
 * that probability (the rest spread evenly over the other options); a question left out of `tops`
 * gets its first option at 0.9. Below its threshold an answer stands on the fallback, and the
 * outcome waits for review (`fallback`); `decided` otherwise.
 */
export function scenarioOutcome(policy: Policy, id: string, at: string, tops: Tops = {}): StoredOutcome {
  const answers: NonNullable<StoredOutcome["answers"]> = {};
  for (const question of policy.questions) {
    const labels = question.labels;
    const top = tops[question.id] ?? { label: labels[0] ?? "", p: 0.9 };
    const rest = labels.length > 1 ? (1 - top.p) / (labels.length - 1) : 0;
    const distribution = Object.fromEntries(
      labels.map((label) => [label, label === top.label ? top.p : rest]),
    );
    const value = storedValue(question.type, top.label);
    const below = top.p < question.threshold;
    answers[question.id] = below
      ? {
          answer: question.fallback,
          probability: distribution[String(question.fallback)] ?? 0,
          distribution,
          threshold: question.threshold,
          source: "fallback",
          model_answer: value,
        }
      : { answer: value, probability: top.p, distribution, threshold: question.threshold, source: "model" };
  }
  const waiting = Object.values(answers).some((answer) => answer.source === "fallback");
  const status = waiting ? "fallback" : "decided";
  return {
    policy: policy.name,
    id,
    policy_status: `${policy.name}#${status}`,
    status,
    answers,
    rules_fired: [],
    source: { kind: "sqs", message_id: `m-${id}` },
    model: "demo-model",
    created_at: at,
    updated_at: at,
    state_preview: JSON.stringify({ subject: `item ${id}` }),
  };
}

/** A question's answer as stored: a level as a number, yes/no as a boolean, a label as it is. */
function storedValue(type: string, label: string): string | number | boolean {
  if (type === "score") return Number(label);
  if (type === "noul") return label === "true";
  return label;
}

/** A small deterministic generator (a linear congruential one), so each run draws the same outcomes. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * `count` decided outcomes of `policy` created evenly over [since, until): question by question the
 * top label cycles over its options (every option appears once `count` reaches their number), and
 * with `lean` one option of a question is chosen for about that extra share of them; probabilities
 * between 0.62 and 0.98, so all are decided.
 */
export function decidedOutcomes(
  policy: Policy,
  prefix: string,
  count: number,
  range: { since: number; until: number },
  lean: { question: string; label: string; share: number } | undefined = undefined,
  seed = 1,
): StoredOutcome[] {
  const random = generator(seed);
  return Array.from({ length: count }, (_, index) => {
    const at = new Date(range.since + ((range.until - range.since) * (index + 0.5)) / count).toISOString();
    const tops: Tops = {};
    for (const question of policy.questions) {
      const labels = question.labels;
      let label = labels[(index + Math.floor(random() * 3)) % labels.length] ?? "";
      if (lean?.question === question.id && random() < lean.share) label = lean.label;
      const p = Math.max(question.threshold, 0.62) + (index % 8) * 0.045 + random() * 0.02;
      tops[question.id] = { label, p: Math.min(0.98, p) };
    }
    return scenarioOutcome(policy, `${prefix}-${String(index).padStart(3, "0")}`, at, tops);
  });
}

/** A policy of the set, or an error naming it. */
export function policyOf(policies: PolicySet, name: string): Policy {
  const policy = policies.get(name);
  if (policy === undefined) throw new Error(`no policy ${name} in the repository's policies`);
  return policy;
}
