import { z } from "zod";

// Each schema takes what a reader has: the trimmed text of a variable or flag, or a value of
// cdk.json. zod's own coercions are not used because they accept more than these settings should
// (`z.coerce.number()` takes "1e3", " 12 " and "0x10"; `z.coerce.boolean()` takes any non-empty text).

/** The text of a given value: a string trimmed, a number or boolean as written; undefined otherwise. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * A whole number in [min, max], written in decimal (`-` allowed): "1e3", "1.0" and "0x10" are refused.
 * @param max - Default: `Number.MAX_SAFE_INTEGER`, documented as "from min up".
 */
export function integerSetting(min: number, max = Number.MAX_SAFE_INTEGER): z.ZodType<number> {
  return z.unknown().transform((value, context) => {
    const text = textOf(value);
    if (text === undefined || !/^-?\d+$/.test(text)) {
      context.addIssue({ code: "custom", message: `must be an integer, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    const number = Number(text);
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `${min} up` : `${min} to ${max}`;
      context.addIssue({ code: "custom", message: `must be an integer from ${range}, got ${text}` });
      return z.NEVER;
    }
    return number;
  });
}

/** `true`, `1`, `yes` or `false`, `0`, `no` (any case), or a JSON boolean. */
export const booleanSetting: z.ZodType<boolean> = z.unknown().transform((value, context) => {
  if (typeof value === "boolean") return value;
  const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  if (text !== undefined && ["true", "1", "yes"].includes(text)) return true;
  if (text !== undefined && ["false", "0", "no"].includes(text)) return false;
  context.addIssue({ code: "custom", message: `must be true or false, got ${JSON.stringify(value)}` });
  return z.NEVER;
});

/** One of `values`, in any case (given as `Merged`, read as `merged`). */
export function oneOfSetting<const T extends string>(values: readonly T[]): z.ZodType<T> {
  return z.unknown().transform((value, context) => {
    const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
    const found = values.find((candidate) => candidate.toLowerCase() === text);
    if (found !== undefined) return found;
    context.addIssue({
      code: "custom",
      message: `must be one of ${values.join(", ")}, got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  });
}

/** Any text (trimmed). */
export const textSetting: z.ZodType<string> = z.unknown().transform((value, context) => {
  if (typeof value === "string") return value.trim();
  context.addIssue({ code: "custom", message: `must be text, got ${JSON.stringify(value)}` });
  return z.NEVER;
});

/** Text that is not empty once trimmed. */
export const nonEmptyTextSetting: z.ZodType<string> = z.unknown().transform((value, context) => {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  context.addIssue({ code: "custom", message: "must not be empty" });
  return z.NEVER;
});

/** Text matching `pattern` as given (not trimmed: a knob's value is checked exactly); `what` names it in the error. */
export function patternSetting(pattern: RegExp, what: string): z.ZodType<string> {
  return z.unknown().transform((value, context) => {
    if (typeof value === "string" && pattern.test(value)) return value;
    context.addIssue({ code: "custom", message: `must be ${what}, got ${JSON.stringify(value)}` });
    return z.NEVER;
  });
}
