import { applyTemperature } from "./applyTemperature.js";
import type { Policy } from "./Policy.js";
import { readModelAnswer } from "./readModelAnswer.js";
import type { AnswerValue, DecidedAnswer, ModelAnswer, PolicyQuestion } from "./types.js";

/** The model's answers read question by question: step 1 of `applyPolicy`. */
export interface AnswersRead {
  /** Question id → its answer as decided so far (model or fallback), in question order. */
  decided: Record<string, DecidedAnswer>;
  /** Question id → the model's own answer (the most probable label). */
  modelAnswers: Record<string, AnswerValue>;
  /** Question id → the probability of the model's answer. */
  confidence: Record<string, number>;
  /** Score question id → the expected level. */
  scores: Record<string, number>;
  /** One line per answer below its threshold (`id: probability p below threshold t`). */
  belowThreshold: string[];
  /** Why an answer could not be used; the questions before it are in `decided`. */
  rejected?: string;
}

/**
 * Reads the model's answer to each question, in order (see `applyPolicy`, step 1): the
 * distribution with the question's temperature applied, the most probable label, and the
 * question's fallback where that label's probability is below the threshold. Stops at the first
 * missing or malformed answer, giving the reason in `rejected`.
 *
 * @param answers the System One response's `answers`, keyed by question id
 */
export function readAnswers(policy: Policy, answers: Readonly<Record<string, ModelAnswer>>): AnswersRead {
  const read: AnswersRead = { decided: {}, modelAnswers: {}, confidence: {}, scores: {}, belowThreshold: [] };
  for (const question of policy.questions) {
    const given = readModelAnswer(
      question,
      Object.hasOwn(answers, question.id) ? answers[question.id] : undefined,
    );
    if (!given.ok) return { ...read, rejected: `answer to "${question.id}": ${given.reason}` };
    const { entry, modelAnswer } = decideQuestion(
      question,
      applyTemperature(given.probabilities, question.temperature),
    );
    if (entry.score !== undefined) read.scores[question.id] = entry.score;
    if (entry.source === "fallback") {
      read.belowThreshold.push(
        `${question.id}: probability ${round(entry.probability)} below threshold ${question.threshold}`,
      );
    }
    read.decided[question.id] = entry;
    read.modelAnswers[question.id] = modelAnswer;
    read.confidence[question.id] = entry.probability;
  }
  return read;
}

/** One question's answer from its distribution: the model's, or the fallback below the threshold. */
function decideQuestion(
  question: PolicyQuestion,
  probabilities: readonly number[],
): { entry: DecidedAnswer; modelAnswer: AnswerValue } {
  const best = argmax(probabilities);
  const probability = probabilities[best] ?? 0;
  const modelAnswer = answerAt(question, best);
  const entry: DecidedAnswer = {
    answer: modelAnswer,
    probability,
    distribution: Object.fromEntries(
      question.labels.map((label, index) => [label, probabilities[index] ?? 0]),
    ),
    threshold: question.threshold,
    source: "model",
  };
  if (question.type === "score") entry.score = probabilities.reduce((sum, p, level) => sum + level * p, 0);
  if (probability < question.threshold) {
    entry.answer = question.fallback;
    entry.source = "fallback";
    entry.model_answer = modelAnswer;
  }
  return { entry, modelAnswer };
}

/** The answer value of the label at `index`: the label, the level, or yes (index 0) / no. */
function answerAt(question: PolicyQuestion, index: number): AnswerValue {
  switch (question.type) {
    case "choice":
      return question.labels[index] ?? question.fallback;
    case "score":
      return index;
    case "noul":
      return index === 0;
  }
}

/** Index of the largest value; ties go to the earliest (the option offered first), as in the engine. */
function argmax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index] ?? 0) > (values[best] ?? 0)) best = index;
  }
  return best;
}

function round(probability: number): number {
  return Number(probability.toPrecision(3));
}
