import type { DecisionState, JsonValue } from "../engine/types.js";
import { addProblem, describeType } from "./fieldChecks.js";
import type { PathSegment } from "./fieldPath.js";
import { checkReservedJson } from "./reservedTokens.js";
import type { Problem } from "./types.js";

/**
 * Checks a decision state: a non-empty string, an object or an array (shown to the model as JSON),
 * with no reserved chat-control text in any string or key at any depth.
 * @returns whether the state is usable.
 */
export function validateState(
  value: unknown,
  path: readonly PathSegment[],
  problems: Problem[],
): value is DecisionState {
  if (value === undefined) {
    addProblem(problems, path, "is required");
    return false;
  }
  if (typeof value === "string") {
    if (value.trim() === "") {
      addProblem(problems, path, "must not be empty");
      return false;
    }
  } else if (value === null || typeof value !== "object") {
    addProblem(problems, path, `must be a string, an object or an array, got ${describeType(value)}`);
    return false;
  }
  const before = problems.length;
  checkReservedJson(value as JsonValue, [...path], problems);
  return problems.length === before;
}
