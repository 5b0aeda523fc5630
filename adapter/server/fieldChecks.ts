/**
 * Small checks shared by the request validators. Each adds a problem naming the field and
 * returns whether the value passed, so a validator can keep going and report every problem.
 */
import type { JsonObject } from "../engine/types.js";
import { formatFieldPath, type PathSegment } from "./fieldPath.js";
import { checkReservedText } from "./reservedTokens.js";
import type { Problem } from "./types.js";

/** Whether a parsed JSON value is an object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Describes a JSON value's type for messages: `an array`, `null`, `a number`… */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Adds a problem at `path`. */
export function addProblem(problems: Problem[], path: readonly PathSegment[], message: string): void {
  problems.push({ field: formatFieldPath(path), message });
}

/** Requires an object; reports keys outside `allowed` as unsupported. */
export function checkObject(
  value: unknown,
  path: readonly PathSegment[],
  allowed: ReadonlySet<string>,
  problems: Problem[],
): value is JsonObject {
  if (!isJsonObject(value)) {
    addProblem(problems, path, `must be an object, got ${describeType(value)}`);
    return false;
  }
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      addProblem(problems, [...path, key], `unsupported field (expected ${[...allowed].join(", ")})`);
    }
  }
  return true;
}

/**
 * Requires a string that is not blank (unless `allowBlank`) and holds no reserved chat-control text.
 */
export function checkText(
  value: unknown,
  path: readonly PathSegment[],
  problems: Problem[],
  options: { allowBlank?: boolean } = {},
): value is string {
  if (value === undefined) {
    addProblem(problems, path, "is required");
    return false;
  }
  if (typeof value !== "string") {
    addProblem(problems, path, `must be a string, got ${describeType(value)}`);
    return false;
  }
  if (options.allowBlank !== true && value.trim() === "") {
    addProblem(problems, path, "must not be empty");
    return false;
  }
  return checkReservedText(value, path, problems);
}

/** Requires an id: a non-empty string without reserved texts, and not `__proto__`. */
export function checkId(value: unknown, path: readonly PathSegment[], problems: Problem[]): value is string {
  if (!checkText(value, path, problems)) return false;
  return checkIdName(value, path, problems);
}

/** Rejects names that cannot be object keys safely. */
export function checkIdName(name: string, path: readonly PathSegment[], problems: Problem[]): boolean {
  if (name === "__proto__") {
    addProblem(problems, path, `${JSON.stringify(name)} is a reserved name`);
    return false;
  }
  return true;
}

/** Requires an array whose length lies in `[min, max]`; `what` names its items in messages. */
export function checkArray(
  value: unknown,
  path: readonly PathSegment[],
  problems: Problem[],
  limits: { min: number; max: number; what: string; maxReason?: string },
): value is unknown[] {
  if (value === undefined) {
    addProblem(problems, path, "is required");
    return false;
  }
  if (!Array.isArray(value)) {
    addProblem(problems, path, `must be an array, got ${describeType(value)}`);
    return false;
  }
  return checkCount(value.length, path, problems, limits);
}

/** Requires a count in `[min, max]`. */
export function checkCount(
  count: number,
  path: readonly PathSegment[],
  problems: Problem[],
  limits: { min: number; max: number; what: string; maxReason?: string },
): boolean {
  if (count < limits.min) {
    addProblem(problems, path, `needs at least ${limits.min} ${limits.what}, got ${count}`);
    return false;
  }
  if (count > limits.max) {
    const reason = limits.maxReason === undefined ? "" : ` (${limits.maxReason})`;
    addProblem(problems, path, `allows at most ${limits.max} ${limits.what}${reason}, got ${count}`);
    return false;
  }
  return true;
}

/**
 * Tracks ids within one scope and reports a repeat naming where the id was first seen.
 */
export class UniqueIds {
  readonly #seen = new Map<string, string>();

  constructor(private readonly what: string) {}

  /** Records `id` found at `path`; adds a problem when it was already seen. */
  check(id: string, path: readonly PathSegment[], problems: Problem[]): boolean {
    const field = formatFieldPath(path);
    const first = this.#seen.get(id);
    if (first !== undefined) {
      problems.push({ field, message: `duplicate ${this.what} ${JSON.stringify(id)} (first at ${first})` });
      return false;
    }
    this.#seen.set(id, field);
    return true;
  }
}
