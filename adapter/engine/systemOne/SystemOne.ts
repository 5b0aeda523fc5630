import { InvalidDecisionError } from "../errors.js";
import { modelNameOf } from "../model/modelNameOf.js";
import type {
  DecisionBatch,
  DecisionEngine,
  DecisionOption,
  DecisionQuestion,
  DecisionResult,
  ScoreOptions,
} from "../types.js";
import type {
  SystemOneAnswer,
  SystemOneQuestion,
  SystemOneRequest,
  SystemOneResponse,
} from "./systemOneTypes.js";

/** Option ids of a yes/no question, in slot order (A = yes, B = no). */
export const NOUL_OPTION_IDS = ["yes", "no"] as const;

/**
 * Turns a System One request into the engine's batch: one decision question per System One
 * question, in request order, all on the request's state. A `choice` with a single label needs no
 * model and is left out (see {@link answerSystemOne}).
 *
 * @throws InvalidDecisionError for a choice without labels or a score with fewer than 2 levels.
 *
 * - `choice`: one option per label, the description (or the label itself when null or listed bare).
 * - `score`: one option per level, ids "0".."K-1", descriptions the level texts.
 * - `noul`: options `yes` and `no`, described by `criteria.true` / `criteria.false` when given.
 *
 * A question's `layout`, `debias` and `debias_rotations` pass through to the decision question.
 */
export function systemOneToBatch(request: SystemOneRequest): DecisionBatch {
  const questions: DecisionQuestion[] = [];
  for (const [id, question] of Object.entries(request.questions)) {
    const options = optionsOf(question);
    const minimum = question.type === "choice" ? 1 : 2;
    if (options.length < minimum) {
      throw new InvalidDecisionError(
        ["questions", id, "criteria"],
        `a ${question.type} question needs at least ${minimum} ${question.type === "score" ? "levels" : "labels"}`,
      );
    }
    if (options.length < 2) continue;
    const decision: DecisionQuestion = { id, question: question.instructions, options };
    if (question.layout !== undefined) decision.layout = question.layout;
    if (question.debias !== undefined) decision.debias = question.debias;
    if (question.debias_rotations !== undefined) decision.debiasRotations = question.debias_rotations;
    questions.push(decision);
  }
  return { state: request.state, questions };
}

/**
 * Answers a System One request with one engine call (the state is evaluated once for all
 * questions). Answers come in request order; each distribution's keys are exactly the offered
 * labels and sum to 1.
 *
 * @throws whatever {@link DecisionEngine.scoreBatch} throws (invalid input, abort).
 */
export async function answerSystemOne(
  engine: DecisionEngine,
  request: SystemOneRequest,
  options: ScoreOptions = {},
): Promise<SystemOneResponse> {
  // A batch prepared from this request (`engine.prepare(systemOneToBatch(request))`) is scored as prepared.
  const batch = options.prepared?.batch ?? systemOneToBatch(request);
  const scored =
    batch.questions.length > 0 ? await engine.scoreBatch(batch, options) : { results: [], timing: undefined };
  const byId = new Map(scored.results.map((result) => [result.id, result]));
  const answers: Record<string, SystemOneAnswer> = {};
  for (const [id, question] of Object.entries(request.questions)) {
    const result = byId.get(id);
    answers[id] = result === undefined ? singleChoiceAnswer(question) : answerOf(question, result);
  }
  // Every prompt's tokens, the prefix all of them share counted once (a debiased answer holds one
  // prompt per rotation).
  const shared = scored.timing?.shared_prefix_tokens ?? 0;
  const prompts = scored.results.reduce((sum, result) => sum + (result.debias?.rotations ?? 1), 0);
  const inputTokens =
    scored.results.reduce((sum, result) => sum + result.input_tokens, 0) - Math.max(0, prompts - 1) * shared;
  // Beyond System One: what the engine evaluated and what it reused, per prompt (a result's counts
  // are summed over its rotations), so a caller can tell the work its request cost.
  const evaluatedTokens = scored.results.reduce((sum, result) => sum + result.evaluated_tokens, 0);
  const cachedTokens = scored.results.reduce((sum, result) => sum + result.cached_tokens, 0);
  return {
    model: modelNameOf(engine.identity),
    // Beyond System One: which file answered, so that two quantizations of one model differ.
    model_sha256: engine.identity.sha256,
    answers,
    usage: {
      input_tokens: inputTokens,
      output_tokens: 0,
      evaluated_tokens: evaluatedTokens,
      cached_tokens: cachedTokens,
    },
  };
}

/** The labels a System One question offers, in order. */
export function labelsOf(question: SystemOneQuestion): string[] {
  return optionsOf(question).map((option) => option.id);
}

function optionsOf(question: SystemOneQuestion): DecisionOption[] {
  switch (question.type) {
    case "choice":
      if (Array.isArray(question.criteria)) {
        return question.criteria.map((label) => ({ id: label, description: label }));
      }
      return Object.entries(question.criteria).map(([label, description]) => ({
        id: label,
        description: description ?? label,
      }));
    case "score":
      return question.criteria.map((description, level) => ({ id: String(level), description }));
    case "noul":
      return [
        { id: NOUL_OPTION_IDS[0], description: question.criteria?.true ?? "Yes" },
        { id: NOUL_OPTION_IDS[1], description: question.criteria?.false ?? "No" },
      ];
  }
}

function answerOf(question: SystemOneQuestion, result: DecisionResult): SystemOneAnswer {
  const answer = plainAnswerOf(question, result);
  // Beyond System One's own fields: the prompt it was scored on (what the pipeline records per
  // outcome) and, when asked for, the debiasing report.
  answer.prompt_version = result.prompt_version;
  answer.prompt_sha256 = result.prompt_sha256;
  if (result.debias !== undefined) {
    const { method, rotations, order_sensitivity } = result.debias;
    answer.debias = { method, rotations, order_sensitivity };
  }
  return answer;
}

function plainAnswerOf(question: SystemOneQuestion, result: DecisionResult): SystemOneAnswer {
  const probabilities = Object.fromEntries(
    result.option_ids.map((id, index) => [id, result.probabilities[index] ?? 0]),
  );
  const best = argmax(result.probabilities);
  switch (question.type) {
    case "choice":
      return {
        type: "choice",
        choice: result.option_ids[best] ?? "",
        confidence: result.probabilities[best] ?? 0,
        probabilities,
      };
    case "score":
      return {
        type: "score",
        score: result.probabilities.reduce((sum, probability, level) => sum + level * probability, 0),
        confidence: result.probabilities[best] ?? 0,
        legend: question.criteria,
        probabilities,
      };
    case "noul":
      return { type: "noul", noul: probabilities.yes ?? 0 };
  }
}

function singleChoiceAnswer(question: SystemOneQuestion): SystemOneAnswer {
  const [label = ""] = labelsOf(question);
  return { type: "choice", choice: label, confidence: 1, probabilities: { [label]: 1 } };
}

/** Index of the largest value; ties go to the earliest (the option offered first). */
function argmax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index] ?? 0) > (values[best] ?? 0)) best = index;
  }
  return best;
}
