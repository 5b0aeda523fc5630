import { parseSetting } from "./parseSetting.js";
import type { Setting } from "./Setting.js";
import { SettingValueError } from "./SettingValueError.js";

/** The values read by {@link readEnvironment}: a setting with a computed default is undefined when unset. */
export type EnvironmentValues<S extends Record<string, Setting<unknown>>> = {
  [K in keyof S]: S[K] extends Setting<infer T>
    ? S[K]["default"] extends { text: string }
      ? T | undefined
      : T
    : never;
};

/** One variable that is missing or invalid. */
export interface EnvironmentProblem {
  variable: string;
  message: string;
}

/**
 * Reads settings from an environment: for each, the first of its variables that is set and not
 * blank, parsed by its schema; unset, its default value (`undefined` for a computed default, left
 * to the caller). Every problem is collected; none is thrown.
 */
export function readEnvironment<S extends Record<string, Setting<unknown>>>(
  settings: S,
  env: Readonly<Record<string, string | undefined>>,
): { values: EnvironmentValues<S>; problems: EnvironmentProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: EnvironmentProblem[] = [];
  for (const [key, setting] of Object.entries(settings)) {
    const variable = setting.env.find((name) => (env[name] ?? "").trim() !== "");
    if (variable === undefined) {
      const fallback = setting.default;
      if ("required" in fallback) problems.push({ variable: setting.env[0], message: "is required" });
      values[key] = "value" in fallback ? fallback.value : undefined;
      continue;
    }
    try {
      values[key] = parseSetting(setting, env[variable]);
    } catch (error) {
      if (!(error instanceof SettingValueError)) throw error;
      problems.push({ variable, message: error.message });
    }
  }
  return { values: values as EnvironmentValues<S>, problems };
}
