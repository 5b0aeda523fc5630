import type {
  AccuracyEstimate,
  AnswerValue,
  DecisionComparison,
  QuestionComparison,
  Share,
} from "../../contract/outcome/shadowReport.js";
import { wilsonScoreInterval } from "../common/wilsonScoreInterval.js";

/** One question's answer as both sides give it (an outcome's answer fits). */
export interface ComparableAnswer {
  /** The answer that stands (the model's, a rule's, or the fallback). */
  answer: AnswerValue;
  /** The probability of that answer. */
  probability: number;
  /** Label → probability, when known: its maximum is the model's confidence. */
  distribution?: Record<string, number>;
  /** `model`, `rule` or `fallback` (`fallback`: the question went to review). */
  source: string;
  /** The model's own answer when a rule or the fallback replaced it. */
  model_answer?: AnswerValue;
}

/** One item's decision as both sides give it (an outcome, or a shadow record's result, fits). */
export interface ComparableDecision {
  /** `decided`, `overridden`, `fallback` (sent to review) or `rejected`. */
  status: string;
  answers?: Record<string, ComparableAnswer>;
  rules_fired?: ReadonlyArray<{ name: string }>;
}

/** Options of {@link compareDecisions}. */
export interface CompareDecisionsInput {
  /** The reference (live) decisions by item id. */
  a: ReadonlyMap<string, ComparableDecision>;
  /** The candidate's decisions by item id. */
  b: ReadonlyMap<string, ComparableDecision>;
  /** Item id → question id → the answer a person gave (reviewed or audited items). Default none. */
  labels?: ReadonlyMap<string, Readonly<Record<string, AnswerValue>>>;
  /** Bins of the confidence histogram over [0, 1]. Default {@link CONFIDENCE_BINS}. */
  bins?: number;
  /** Disagreeing items listed per question, at most. Default {@link LISTED_DISAGREEMENTS}. */
  listed?: number;
}

/** Equal-width bins of the confidence histograms. */
export const CONFIDENCE_BINS = 10;

/** Disagreeing items listed per question by default. */
export const LISTED_DISAGREEMENTS = 10;

/** Statuses that leave an item to its automated answers. */
const AUTOMATED = new Set(["decided", "overridden"]);

/**
 * Compares two sets of decisions of the same items — live outcomes and a candidate's shadow
 * results, or two `decisions classify` runs — item by item: per question, how often the answers
 * agree, how often the question moves between an automated answer and review, the shift of the
 * model's confidence histogram, the review load each side creates at its own thresholds and,
 * where a person answered the question, the accuracy of each side's model answer with a 95 %
 * Wilson interval; per item, status transitions and rules that fire on one side only. Pure.
 *
 * Accuracy counts every labelled item once: items that reached a person through review are not a
 * random sample of traffic (audited ones are), so read it as accuracy on those items.
 *
 * @example
 * const report = compareDecisions({ a: live, b: candidate, labels });
 * report.questions.queue?.agreement // 0.93
 */
export function compareDecisions(input: CompareDecisionsInput): DecisionComparison {
  const bins = input.bins ?? CONFIDENCE_BINS;
  const listed = input.listed ?? LISTED_DISAGREEMENTS;
  const ids = [...input.a.keys()].filter((id) => input.b.has(id)).sort();
  const n = ids.length;
  const share = (count: number, of = n): Share => ({ count, share: of === 0 ? 0 : count / of });
  const statusA: Record<string, number> = {};
  const statusB: Record<string, number> = {};
  const transitions: Record<string, number> = {};
  let changed = 0;
  let toReview = 0;
  let toAutomated = 0;
  const rules = new Map<string, { a: number; b: number; only_a: number; only_b: number }>();
  const questions = new Map<string, QuestionTally>();

  for (const id of ids) {
    const a = input.a.get(id) as ComparableDecision;
    const b = input.b.get(id) as ComparableDecision;
    increment(statusA, a.status);
    increment(statusB, b.status);
    if (a.status !== b.status) {
      changed += 1;
      increment(transitions, `${a.status}→${b.status}`);
      if (AUTOMATED.has(a.status) && b.status === "fallback") toReview += 1;
      if (a.status === "fallback" && AUTOMATED.has(b.status)) toAutomated += 1;
    }
    const firedA = new Set((a.rules_fired ?? []).map((rule) => rule.name));
    const firedB = new Set((b.rules_fired ?? []).map((rule) => rule.name));
    for (const name of new Set([...firedA, ...firedB])) {
      const tally = rules.get(name) ?? { a: 0, b: 0, only_a: 0, only_b: 0 };
      if (firedA.has(name)) tally.a += 1;
      if (firedB.has(name)) tally.b += 1;
      if (firedA.has(name) && !firedB.has(name)) tally.only_a += 1;
      if (firedB.has(name) && !firedA.has(name)) tally.only_b += 1;
      rules.set(name, tally);
    }
    const labels = input.labels?.get(id);
    for (const [qid, answerA] of Object.entries(a.answers ?? {})) {
      const answerB = b.answers?.[qid];
      if (answerB === undefined) continue;
      let tally = questions.get(qid);
      if (tally === undefined) {
        tally = newTally(bins);
        questions.set(qid, tally);
      }
      tallyQuestion(tally, id, answerA, answerB, labels?.[qid], bins, listed);
    }
  }

  return {
    sampled: n,
    only_a: [...input.a.keys()].filter((id) => !input.b.has(id)).length,
    only_b: [...input.b.keys()].filter((id) => !input.a.has(id)).length,
    status: {
      a: statusA,
      b: statusB,
      changed: share(changed),
      to_review: share(toReview),
      to_automated: share(toAutomated),
      transitions,
    },
    review_load: { a: share(statusA.fallback ?? 0), b: share(statusB.fallback ?? 0) },
    rules: [...rules.entries()]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([name, tally]) => ({ name, ...tally })),
    questions: Object.fromEntries(
      [...questions.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([qid, tally]) => [qid, summarize(tally, bins)]),
    ),
  };
}

interface QuestionTally {
  compared: number;
  agreed: number;
  modelAgreed: number;
  toReview: number;
  toAutomated: number;
  reviewA: number;
  reviewB: number;
  histogramA: number[];
  histogramB: number[];
  sumA: number;
  sumB: number;
  labelled: number;
  correctA: number;
  correctB: number;
  disagreements: Array<{ id: string; a: AnswerValue; b: AnswerValue }>;
}

function newTally(bins: number): QuestionTally {
  return {
    compared: 0,
    agreed: 0,
    modelAgreed: 0,
    toReview: 0,
    toAutomated: 0,
    reviewA: 0,
    reviewB: 0,
    histogramA: new Array<number>(bins).fill(0),
    histogramB: new Array<number>(bins).fill(0),
    sumA: 0,
    sumB: 0,
    labelled: 0,
    correctA: 0,
    correctB: 0,
    disagreements: [],
  };
}

function tallyQuestion(
  tally: QuestionTally,
  id: string,
  a: ComparableAnswer,
  b: ComparableAnswer,
  label: AnswerValue | undefined,
  bins: number,
  listed: number,
): void {
  tally.compared += 1;
  if (same(a.answer, b.answer)) tally.agreed += 1;
  else if (tally.disagreements.length < listed) tally.disagreements.push({ id, a: a.answer, b: b.answer });
  if (same(modelAnswerOf(a), modelAnswerOf(b))) tally.modelAgreed += 1;
  const reviewA = a.source === "fallback";
  const reviewB = b.source === "fallback";
  if (reviewA) tally.reviewA += 1;
  if (reviewB) tally.reviewB += 1;
  if (!reviewA && reviewB) tally.toReview += 1;
  if (reviewA && !reviewB) tally.toAutomated += 1;
  const confidenceA = confidenceOf(a);
  const confidenceB = confidenceOf(b);
  tally.sumA += confidenceA;
  tally.sumB += confidenceB;
  (tally.histogramA[binOf(confidenceA, bins)] as number) += 1;
  (tally.histogramB[binOf(confidenceB, bins)] as number) += 1;
  if (label !== undefined) {
    tally.labelled += 1;
    if (same(modelAnswerOf(a), label)) tally.correctA += 1;
    if (same(modelAnswerOf(b), label)) tally.correctB += 1;
  }
}

function summarize(tally: QuestionTally, bins: number): QuestionComparison {
  const n = tally.compared;
  const share = (count: number): Share => ({ count, share: n === 0 ? 0 : count / n });
  const estimate = (correct: number): AccuracyEstimate => ({
    correct,
    accuracy: correct / tally.labelled,
    interval: wilsonScoreInterval(correct, tally.labelled),
  });
  return {
    compared: n,
    agreement: n === 0 ? 0 : tally.agreed / n,
    agreed: tally.agreed,
    model_agreement: n === 0 ? 0 : tally.modelAgreed / n,
    to_review: share(tally.toReview),
    to_automated: share(tally.toAutomated),
    review_load: { a: share(tally.reviewA), b: share(tally.reviewB) },
    confidence: {
      bins,
      a: tally.histogramA,
      b: tally.histogramB,
      shift: tally.histogramB.map((count, index) => count - (tally.histogramA[index] ?? 0)),
      mean_a: n === 0 ? 0 : tally.sumA / n,
      mean_b: n === 0 ? 0 : tally.sumB / n,
    },
    ...(tally.labelled > 0
      ? { accuracy: { labelled: tally.labelled, a: estimate(tally.correctA), b: estimate(tally.correctB) } }
      : {}),
    disagreements: tally.disagreements,
  };
}

/** The model's own answer: what a rule or the fallback replaced, else the answer that stands. */
export function modelAnswerOf(answer: ComparableAnswer): AnswerValue {
  return answer.model_answer ?? answer.answer;
}

/** The model's confidence: its top probability (the distribution's maximum, else the answer's). */
function confidenceOf(answer: ComparableAnswer): number {
  const values = Object.values(answer.distribution ?? {});
  return values.length > 0 ? Math.max(...values) : answer.probability;
}

function binOf(value: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.floor(value * bins)));
}

/** Answers compare as text: a level 3 and "3", or true and "yes", are the same answer. */
function same(x: AnswerValue, y: AnswerValue): boolean {
  return normalized(x) === normalized(y);
}

function normalized(value: AnswerValue): string {
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
