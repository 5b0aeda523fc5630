import type { z } from "zod";

/**
 * A setting's default: the value itself (documented as code), a rule the reader computes
 * (documented in words by `text`), or none: the setting is required.
 */
export type SettingDefault<T> =
  | { readonly value: T }
  | { readonly text: string }
  | { readonly required: true };

/**
 * One setting of the kit: the environment variables it is read from, how a given value is parsed,
 * its default and what it does. Every reader of a setting (the server, a function, the CDK app)
 * uses the same entry, so a variable's name, parser and default are written once.
 */
export interface Setting<T> {
  /** Environment variables it is read from, first set wins. */
  readonly env: readonly [string, ...string[]];
  /**
   * Turns a given value into the setting: the text of a variable or flag (trimmed; blank counts as
   * unset), or a value of `cdk.json` (a number, a boolean, a string). Its issues say what is wrong.
   */
  readonly schema: z.ZodType<T>;
  readonly default: SettingDefault<T>;
  /** What the setting does, one line (backticks mark code). */
  readonly doc: string;
}

/** The environment variable a setting is written to (its first). */
export function variableOf(setting: Setting<unknown>): string {
  return setting.env[0];
}

/** The default as documented: the value as text, or the rule in words; `required` for none. */
export function defaultTextOf(setting: Setting<unknown>): string {
  const fallback = setting.default;
  if ("value" in fallback) return String(fallback.value);
  if ("text" in fallback) return fallback.text;
  return "required";
}
