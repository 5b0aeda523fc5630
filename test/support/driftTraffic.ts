/**
 * Generated traffic for the drift tests: outcomes of one question whose states come in kinds, each
 * kind with the distribution a model gives it (jittered per item by a seeded generator), in a mix
 * that may change at a planted time. Deterministic for a seed.
 */
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { seededUniform } from "../../core/common/SeededRandom.js";

/** A kind of state and the distribution the model gives such states. */
export interface StateKind {
  name: string;
  distribution: Readonly<Record<string, number>>;
}

/** Options of {@link generateTraffic}. */
export interface TrafficOptions {
  policy: string;
  question: string;
  /** First item's time, ms. */
  start: number;
  hours: number;
  perHour: number;
  kinds: readonly StateKind[];
  /** The mix (kind name → weight) of the states decided at `at`. */
  mixAt(at: number): Readonly<Record<string, number>>;
  /** Below it the answer is the fallback (status `fallback`). */
  threshold: number;
  fallback: string;
  seed: number;
  /** Each probability moves by up to ± this before renormalising. Default 0.05. */
  jitter?: number;
}

/** Outcomes of the generated traffic, in time order, ids `<policy>-<n>`. */
export function generateTraffic(options: TrafficOptions): Outcome[] {
  const random = seededUniform(options.seed);
  const jitter = options.jitter ?? 0.05;
  const spacing = 3_600_000 / options.perHour;
  const outcomes: Outcome[] = [];
  const total = options.hours * options.perHour;
  for (let index = 0; index < total; index += 1) {
    const at = options.start + index * spacing + Math.floor(random() * spacing);
    const kind = pick(options.kinds, options.mixAt(at), random());
    const noisy = Object.entries(kind.distribution).map(
      ([label, p]) => [label, Math.max(0.001, p + (random() * 2 - 1) * jitter)] as const,
    );
    const sum = noisy.reduce((total, [, p]) => total + p, 0);
    const distribution = Object.fromEntries(noisy.map(([label, p]) => [label, p / sum]));
    const [top, p] = Object.entries(distribution).reduce((best, entry) =>
      entry[1] > best[1] ? entry : best,
    );
    const confident = p >= options.threshold;
    const time = new Date(at).toISOString();
    const status = confident ? "decided" : "fallback";
    outcomes.push({
      policy: options.policy,
      id: `${options.policy}-${index}`,
      policy_status: `${options.policy}#${status}`,
      status,
      answers: {
        [options.question]: {
          answer: confident ? top : options.fallback,
          probability: confident ? p : (distribution[options.fallback] ?? 0),
          distribution,
          threshold: options.threshold,
          source: confident ? "model" : "fallback",
          ...(confident ? {} : { model_answer: top }),
        },
      },
      rules_fired: [],
      source: { kind: "sqs", message_id: `m-${index}` },
      created_at: time,
      updated_at: time,
      state_preview: `{"kind":"${kind.name}"}`,
    });
  }
  return outcomes;
}

function pick(kinds: readonly StateKind[], mix: Readonly<Record<string, number>>, draw: number): StateKind {
  const total = kinds.reduce((sum, kind) => sum + (mix[kind.name] ?? 0), 0);
  let left = draw * total;
  for (const kind of kinds) {
    left -= mix[kind.name] ?? 0;
    if (left < 0) return kind;
  }
  const last = kinds.findLast((kind) => (mix[kind.name] ?? 0) > 0);
  if (last === undefined) throw new Error("the mix gives no kind any weight");
  return last;
}

/** Ticket routing's kinds of states: three the options cover, and a new one (shipping) they do not. */
export const TICKET_KINDS: readonly StateKind[] = [
  { name: "billing", distribution: { billing: 0.86, technical: 0.08, account: 0.06 } },
  { name: "technical", distribution: { billing: 0.07, technical: 0.85, account: 0.08 } },
  { name: "account", distribution: { billing: 0.08, technical: 0.1, account: 0.82 } },
  { name: "shipping", distribution: { billing: 0.42, technical: 0.3, account: 0.28 } },
];

/** The mix before the planted shift. */
export const MIX_BEFORE = { billing: 0.5, technical: 0.35, account: 0.15 } as const;
/** The mix after it: a new kind of state arrives and takes a large share. */
export const MIX_AFTER = { billing: 0.25, technical: 0.2, account: 0.1, shipping: 0.45 } as const;
