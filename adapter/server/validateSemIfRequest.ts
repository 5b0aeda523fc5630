import type { DecisionQuestion, DecisionState } from "../engine/types.js";
import {
  addProblem,
  checkArray,
  checkId,
  checkObject,
  checkText,
  isJsonObject,
  UniqueIds,
} from "./fieldChecks.js";
import type { PathSegment } from "./fieldPath.js";
import type { Problem, RequestLimits, SemIfInvocation, Validation } from "./types.js";
import { validateState } from "./validateState.js";

const REQUEST_FIELDS = new Set(["decision", "decisions"]);
const DECISION_FIELDS = new Set(["id", "state", "question", "options", "temperature"]);
const OPTION_FIELDS = new Set(["id", "description"]);

/**
 * Validates a SemIf request: exactly one of `decision` or `decisions`, where
 * `decision = {id, state, question, options: [{id, description}], temperature?}`; option ids are
 * unique within a decision; 2 to `limits.maxOptions` options; a `decisions` list holds 1 to
 * `limits.maxQuestions` decisions with unique ids that all share one state (equal as JSON, key
 * order included, since the state is rendered once). Every problem is reported, each naming its
 * field, e.g. `decision.options[2].id: duplicate option id "billing" (first at decision.options[0].id)`.
 */
export function validateSemIfRequest(body: unknown, limits: RequestLimits): Validation<SemIfInvocation> {
  const problems: Problem[] = [];
  if (!checkObject(body, [], REQUEST_FIELDS, problems)) return { ok: false, problems };
  const hasSingle = body.decision !== undefined;
  const hasShared = body.decisions !== undefined;
  if (hasSingle === hasShared) {
    addProblem(problems, [], "must hold exactly one of decision or decisions");
    return { ok: false, problems };
  }
  if (hasSingle) {
    const parsed = validateDecision(body.decision, ["decision"], limits, problems, { own: true });
    if (parsed === undefined || problems.length > 0) return { ok: false, problems };
    return {
      ok: true,
      value: { kind: "semif", shape: "single", batch: { state: parsed.state, questions: [parsed.question] } },
    };
  }
  const list = body.decisions;
  if (!checkArray(list, ["decisions"], problems, { min: 1, max: limits.maxQuestions, what: "decisions" })) {
    return { ok: false, problems };
  }
  const ids = new UniqueIds("decision id");
  const questions: DecisionQuestion[] = [];
  // decisions[0] carries the state; the others must repeat it exactly.
  const first = list[0];
  const reference =
    isJsonObject(first) && first.state !== undefined ? JSON.stringify(first.state) : undefined;
  list.forEach((item, index) => {
    const path: PathSegment[] = ["decisions", index];
    const parsed = validateDecision(
      item,
      path,
      limits,
      problems,
      index === 0 ? { own: true } : { own: false, reference },
    );
    if (isJsonObject(item) && typeof item.id === "string") ids.check(item.id, [...path, "id"], problems);
    if (parsed !== undefined) questions.push(parsed.question);
  });
  if (problems.length > 0 || !isJsonObject(first)) return { ok: false, problems };
  const state = first.state as DecisionState;
  return { ok: true, value: { kind: "semif", shape: "shared", batch: { state, questions } } };
}

function validateDecision(
  value: unknown,
  path: readonly PathSegment[],
  limits: RequestLimits,
  problems: Problem[],
  stateRule: { own: true } | { own: false; reference: string | undefined },
): { state: DecisionState; question: DecisionQuestion } | undefined {
  if (!checkObject(value, path, DECISION_FIELDS, problems)) return undefined;
  const before = problems.length;
  checkId(value.id, [...path, "id"], problems);
  let stateOk: boolean;
  if (stateRule.own) {
    stateOk = validateState(value.state, [...path, "state"], problems);
  } else if (value.state !== undefined && JSON.stringify(value.state) === stateRule.reference) {
    stateOk = true; // identical to decisions[0].state, which is checked on its own
  } else {
    stateOk = false;
    addProblem(
      problems,
      [...path, "state"],
      "must equal decisions[0].state: every decision of a shared request has the same state",
    );
  }
  checkText(value.question, [...path, "question"], problems);
  const options = validateOptions(value.options, [...path, "options"], limits, problems);
  const temperature = value.temperature;
  if (
    temperature !== undefined &&
    (typeof temperature !== "number" || !(temperature > 0) || !Number.isFinite(temperature))
  ) {
    addProblem(problems, [...path, "temperature"], "must be a positive finite number");
  }
  if (problems.length > before || !stateOk || options === undefined) return undefined;
  const question: DecisionQuestion = { id: value.id as string, question: value.question as string, options };
  if (typeof temperature === "number") question.temperature = temperature;
  return { state: value.state as DecisionState, question };
}

function validateOptions(
  value: unknown,
  path: readonly PathSegment[],
  limits: RequestLimits,
  problems: Problem[],
): DecisionQuestion["options"] | undefined {
  const counted = checkArray(value, path, problems, {
    min: 2,
    max: limits.maxOptions,
    what: "options",
    maxReason: "the size of this model's verified label alphabet and the configured limit",
  });
  if (!Array.isArray(value)) return undefined;
  const before = problems.length;
  const ids = new UniqueIds("option id");
  const options: DecisionQuestion["options"] = [];
  value.forEach((option, index) => {
    const optionPath: PathSegment[] = [...path, index];
    if (!checkObject(option, optionPath, OPTION_FIELDS, problems)) return;
    if (checkId(option.id, [...optionPath, "id"], problems))
      ids.check(option.id, [...optionPath, "id"], problems);
    checkText(option.description, [...optionPath, "description"], problems);
    options.push({ id: option.id as string, description: option.description as string });
  });
  return counted && problems.length === before ? options : undefined;
}
