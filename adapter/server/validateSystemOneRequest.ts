import type { SystemOneQuestion, SystemOneRequest } from "../engine/systemOneTypes.js";
import type { DecisionState } from "../engine/types.js";
import { SYSTEM_ONE_MAX_LABELS } from "./constants.js";
import {
  addProblem,
  checkArray,
  checkCount,
  checkIdName,
  checkObject,
  checkText,
  describeType,
  isJsonObject,
  UniqueIds,
} from "./fieldChecks.js";
import type { PathSegment } from "./fieldPath.js";
import { checkReservedText } from "./reservedTokens.js";
import type { Problem, RequestLimits, SystemOneInvocation, Validation } from "./types.js";
import { validateState } from "./validateState.js";

const REQUEST_FIELDS = new Set(["model", "state", "questions"]);
const QUESTION_FIELDS = new Set(["type", "instructions", "criteria"]);
const NOUL_CRITERIA_FIELDS = new Set(["true", "false"]);
const TYPES = ["choice", "score", "noul"] as const;

/**
 * Validates a System One request `{model?, state, questions: {<qid>: {type, instructions, criteria}}}`:
 * 1 to `limits.maxQuestions` questions; `choice` criteria are a `{label: description | null}` map or
 * an array of unique labels, 1 to 255 of them and at most `limits.maxOptions`; `score` criteria are
 * 2+ level descriptions (same upper bound); `noul` criteria are absent or `{true?, false?}`. No
 * reserved chat-control text anywhere the model would read it (state, instructions, labels,
 * descriptions, question ids). Every problem is reported, each naming its field.
 */
export function validateSystemOneRequest(
  body: unknown,
  limits: RequestLimits,
): Validation<SystemOneInvocation> {
  const problems: Problem[] = [];
  if (!checkObject(body, [], REQUEST_FIELDS, problems)) return { ok: false, problems };
  if (body.model !== undefined && typeof body.model !== "string") {
    addProblem(problems, ["model"], `must be a string, got ${describeType(body.model)}`);
  }
  validateState(body.state, ["state"], problems);
  const questions = body.questions;
  if (questions === undefined) {
    addProblem(problems, ["questions"], "is required");
  } else if (!isJsonObject(questions)) {
    addProblem(
      problems,
      ["questions"],
      `must be an object of questions by id, got ${describeType(questions)}`,
    );
  } else if (
    checkCount(Object.keys(questions).length, ["questions"], problems, {
      min: 1,
      max: limits.maxQuestions,
      what: "questions",
    })
  ) {
    for (const [id, question] of Object.entries(questions)) {
      const path: PathSegment[] = ["questions", id];
      if (id.trim() === "") addProblem(problems, path, "a question id must not be empty");
      else if (checkIdName(id, path, problems)) checkReservedText(id, path, problems);
      validateQuestion(question, path, limits, problems);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const request: SystemOneRequest = {
    state: body.state as DecisionState,
    questions: questions as unknown as Record<string, SystemOneQuestion>,
  };
  if (typeof body.model === "string") request.model = body.model;
  return { ok: true, value: { kind: "systemone", request } };
}

function validateQuestion(
  value: unknown,
  path: readonly PathSegment[],
  limits: RequestLimits,
  problems: Problem[],
): void {
  if (!checkObject(value, path, QUESTION_FIELDS, problems)) return;
  checkText(value.instructions, [...path, "instructions"], problems);
  const maxLabels = Math.min(SYSTEM_ONE_MAX_LABELS, limits.maxOptions);
  const maxReason =
    maxLabels < SYSTEM_ONE_MAX_LABELS
      ? "the size of this model's verified label alphabet and the configured limit"
      : "the API's limit";
  const criteriaPath = [...path, "criteria"];
  switch (value.type) {
    case "choice":
      validateChoiceCriteria(value.criteria, criteriaPath, { max: maxLabels, maxReason }, problems);
      return;
    case "score":
      if (
        checkArray(value.criteria, criteriaPath, problems, {
          min: 2,
          max: maxLabels,
          what: "levels",
          maxReason,
        })
      ) {
        value.criteria.forEach((level, index) => {
          checkText(level, [...criteriaPath, index], problems);
        });
      }
      return;
    case "noul":
      if (
        value.criteria !== undefined &&
        checkObject(value.criteria, criteriaPath, NOUL_CRITERIA_FIELDS, problems)
      ) {
        for (const key of ["true", "false"] as const) {
          if (value.criteria[key] !== undefined)
            checkText(value.criteria[key], [...criteriaPath, key], problems);
        }
      }
      return;
    case undefined:
      addProblem(problems, [...path, "type"], `is required (one of ${TYPES.join(", ")})`);
      return;
    default:
      addProblem(
        problems,
        [...path, "type"],
        `must be one of ${TYPES.join(", ")}, got ${JSON.stringify(value.type)}`,
      );
  }
}

function validateChoiceCriteria(
  value: unknown,
  path: readonly PathSegment[],
  limits: { max: number; maxReason: string },
  problems: Problem[],
): void {
  const count = { min: 1, max: limits.max, what: "labels", maxReason: limits.maxReason };
  if (Array.isArray(value)) {
    if (!checkCount(value.length, path, problems, count)) return;
    const labels = new UniqueIds("label");
    value.forEach((label, index) => {
      const labelPath = [...path, index];
      if (checkText(label, labelPath, problems) && checkIdName(label, labelPath, problems)) {
        labels.check(label, labelPath, problems);
      }
    });
    return;
  }
  if (value === undefined) {
    addProblem(problems, path, "is required: a {label: description | null} object or an array of labels");
    return;
  }
  if (!isJsonObject(value)) {
    addProblem(
      problems,
      path,
      `must be a {label: description | null} object or an array of labels, got ${describeType(value)}`,
    );
    return;
  }
  // Repeated labels in object form are reported from the raw text (JSON.parse keeps the last one).
  if (!checkCount(Object.keys(value).length, path, problems, count)) return;
  for (const [label, description] of Object.entries(value)) {
    const labelPath = [...path, label];
    if (label.trim() === "") addProblem(problems, labelPath, "a label must not be empty");
    else if (checkIdName(label, labelPath, problems)) checkReservedText(label, labelPath, problems);
    if (description !== null) checkText(description, labelPath, problems);
  }
}
