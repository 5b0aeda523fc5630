/** The error a function entry point throws for an invalid environment. */

/** One environment variable that is missing or invalid. */
export interface ConfigProblem {
  /** The variable's name, e.g. `MAX_CONCURRENT_GROUPS`. */
  variable: string;
  message: string;
}

/**
 * The function's environment is invalid: thrown at cold start, naming every variable that is
 * missing or wrong, so the deployment is fixed in one pass.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    /** Which function's configuration. */
    readonly functionName: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(
      `invalid configuration of the ${functionName} function: ${problems
        .map((problem) => `${problem.variable} ${problem.message}`)
        .join("; ")}`,
    );
  }
}
