/**
 * Building blocks of the request schemas: closed objects, texts, ids, counted lists and maps, and
 * the refinements zod has no built-in for (unique ids, reserved text anywhere in a JSON value).
 * Messages are written in the caller's terms (`needs at least 2 options, got 1`); a missing field
 * says `is required`.
 */
import { z } from "zod";
import { describeType } from "./describeType.js";
import type { JsonObject, JsonPathSegment, JsonValue } from "./types.js";

/** `params` of an issue raised where a value has the wrong type (so a union can tell the branch that fits). */
export const TYPE_MISMATCH = { typeMismatch: true } as const;

/** `params` of a repeated-id issue: `first` is where the id was first used, relative like the issue's own path tail. */
export interface RepeatParams {
  first: JsonPathSegment[];
}

/** An error function: `is required` for a missing value, else `must be <what>, got <type>`. */
export function mustBe(what: string): (issue: { input?: unknown }) => string {
  return (issue) =>
    issue.input === undefined ? "is required" : `must be ${what}, got ${describeType(issue.input)}`;
}

/** A closed object: other keys are `unsupported field (expected …)`; `expected` lists them (default: the shape's keys). */
export function closedObject<Shape extends z.ZodRawShape>(
  shape: Shape,
  expected: readonly string[] = Object.keys(shape),
) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unsupported field (expected ${expected.join(", ")})`
        : mustBe("an object")(issue),
  });
}

/** Adds an issue when `text` holds reserved text. */
function refuseReserved(
  text: string,
  find: ((text: string) => string | undefined) | undefined,
  ctx: z.RefinementCtx,
  path: JsonPathSegment[] = [],
  prefix = "",
): void {
  const token = find?.(text);
  if (token !== undefined) {
    ctx.addIssue({
      code: "custom",
      path,
      message: `${prefix}contains the reserved chat-control text ${JSON.stringify(token)}`,
    });
  }
}

/** A text the model reads: a string, not blank unless `allowBlank`, without reserved text. */
export function requestText(
  find: ((text: string) => string | undefined) | undefined,
  options: { allowBlank?: boolean; what?: string } = {},
) {
  const text = z.string({ error: mustBe(options.what ?? "a string") }).superRefine((value, ctx) => {
    if (options.allowBlank !== true && value.trim() === "") {
      ctx.addIssue({ code: "custom", message: "must not be empty" });
      return;
    }
    refuseReserved(value, find, ctx);
  });
  return options.allowBlank === true ? text : text.meta({ minLength: 1 });
}

/** Adds the issue of an id or key that cannot be used: blank, `__proto__`, or holding reserved text. */
export function checkName(
  name: string,
  ctx: z.RefinementCtx,
  find: ((text: string) => string | undefined) | undefined,
  path: JsonPathSegment[],
  blankMessage = "must not be empty",
): void {
  if (name.trim() === "") ctx.addIssue({ code: "custom", path, message: blankMessage });
  else if (name === "__proto__")
    ctx.addIssue({ code: "custom", path, message: '"__proto__" is a reserved name' });
  else refuseReserved(name, find, ctx, path);
}

/**
 * An id or a caller's key: a non-blank string without reserved text, and not `__proto__` (ids
 * become object keys). `blankMessage` replaces `must not be empty`.
 */
export function requestId(find: ((text: string) => string | undefined) | undefined, blankMessage?: string) {
  return z
    .string({ error: mustBe("a string") })
    .superRefine((id, ctx) => checkName(id, ctx, find, [], blankMessage))
    .meta({ minLength: 1, not: { const: "__proto__" } });
}

/** Count bounds of a list or map, with the words its messages use. */
export interface CountLimits {
  min: number;
  max: number;
  /** Plural noun of the items: `options`, `levels`. */
  what: string;
  /** Why `max` is what it is, e.g. `the API's limit`; left out when absent. */
  maxReason?: string;
}

function tooFew(count: number, limits: CountLimits): string {
  return `needs at least ${limits.min} ${limits.what}, got ${count}`;
}

function tooMany(count: number, limits: CountLimits): string {
  const reason = limits.maxReason === undefined ? "" : ` (${limits.maxReason})`;
  return `allows at most ${limits.max} ${limits.what}${reason}, got ${count}`;
}

/** An array of `item` whose length lies in `[min, max]`. */
export function countedArray<Item extends z.ZodType>(item: Item, limits: CountLimits, what = "an array") {
  return z
    .array(item, { error: mustBe(what) })
    .min(limits.min, { error: (issue) => tooFew(lengthOf(issue.input), limits) })
    .max(limits.max, { error: (issue) => tooMany(lengthOf(issue.input), limits) });
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A map from caller-chosen keys to `value`s. Its key count lies in `[min, max]` and no key is
 * `__proto__`; when either fails nothing else is checked (the values' problems would only bury
 * it, and zod's record skips a `__proto__` key). Then every key must pass `key` and every value
 * `value`, all problems reported together.
 */
export function keyedObject<Key extends z.ZodType<string>, Value extends z.ZodType>(
  key: Key,
  value: Value,
  limits: CountLimits,
  what: string,
) {
  return z
    .custom<Record<string, unknown>>(isPlainObject, { error: mustBe(what), params: TYPE_MISMATCH })
    .superRefine((map, ctx) => {
      const keys = Object.keys(map);
      if (keys.length < limits.min) ctx.addIssue({ code: "custom", message: tooFew(keys.length, limits) });
      else if (keys.length > limits.max)
        ctx.addIssue({ code: "custom", message: tooMany(keys.length, limits) });
      if (keys.includes("__proto__")) {
        ctx.addIssue({ code: "custom", path: ["__proto__"], message: '"__proto__" is a reserved name' });
      }
    })
    .pipe(z.record(key, value))
    .meta({ minProperties: limits.min, maxProperties: limits.max });
}

/**
 * Refines a list: each item's `keyOf` (an id, a label) is unique; a repeat is named at its own
 * path, with where it was first used in `params.first` (see {@link RepeatParams}).
 */
export function uniqueItems<Item>(
  what: string,
  keyOf: (item: Item) => string,
  path: (index: number) => JsonPathSegment[],
) {
  return (items: readonly Item[], ctx: z.RefinementCtx): void => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const key = keyOf(item);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, index);
        return;
      }
      const params: RepeatParams = { first: path(first) };
      ctx.addIssue({
        code: "custom",
        path: path(index),
        message: `duplicate ${what} ${JSON.stringify(key)}`,
        params,
      });
    });
  };
}

/**
 * Adds one issue per string of a JSON value (object keys included) that holds reserved text, at
 * its path; a key is named on the object that holds it. Iterative, so any depth is safe.
 */
export function refuseReservedJson(
  value: unknown,
  find: ((text: string) => string | undefined) | undefined,
  ctx: z.RefinementCtx,
): void {
  if (find === undefined) return;
  const pending: Array<{ value: unknown; path: JsonPathSegment[] }> = [{ value, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, path } = next;
    if (typeof item === "string") {
      refuseReserved(item, find, ctx, path);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index -= 1)
        pending.push({ value: item[index], path: [...path, index] });
    } else if (isPlainObject(item)) {
      const keys = Object.keys(item);
      for (const key of keys) refuseReserved(key, find, ctx, path, `key ${JSON.stringify(key)} `);
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        pending.push({ value: item[key], path: [...path, key] });
      }
    }
  }
}

/** The JSON Schema of a decision state, for the schemas' JSON Schema export. */
const STATE_JSON_SCHEMA = {
  description: "The evidence: free text, or a JSON object or array shown to the model as JSON.",
  anyOf: [{ type: "string", minLength: 1 }, { type: "object" }, { type: "array" }],
};

/** A decision state: a non-blank string, an object or an array, without reserved text in any string or key. */
export function stateSchema(find: ((text: string) => string | undefined) | undefined) {
  return z
    .custom<string | JsonObject | JsonValue[]>(
      (value) => typeof value === "string" || (typeof value === "object" && value !== null),
      { error: mustBe("a string, an object or an array"), params: TYPE_MISMATCH },
    )
    .superRefine((state, ctx) => {
      if (typeof state === "string" && state.trim() === "")
        ctx.addIssue({ code: "custom", message: "must not be empty" });
      else refuseReservedJson(state, find, ctx);
    })
    .meta(STATE_JSON_SCHEMA);
}
