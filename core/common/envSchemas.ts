import { type EnvironmentValues, readEnvironment, type Setting } from "../../contract/index.js";
import { ConfigError } from "./ConfigError.js";

/**
 * Reads a function's settings (entries of the settings kit in `contract/settings`) from its
 * environment, or throws a {@link ConfigError} naming every missing or bad variable. A setting whose
 * default is a rule (`POLICY_DIR`) is undefined when unset; the caller applies it.
 */
export function parseEnvironment<S extends Record<string, Setting<unknown>>>(
  functionName: string,
  settings: S,
  env: Readonly<Record<string, string | undefined>>,
): EnvironmentValues<S> {
  const { values, problems } = readEnvironment(settings, env);
  if (problems.length > 0) throw new ConfigError(functionName, problems);
  return values;
}
