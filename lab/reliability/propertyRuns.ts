/**
 * How many cases a property test runs: `PROPERTY_RUNS` when set (the chaos command and a soak run
 * set it high), else the test's own default. Read once by the test file that calls it.
 */

/**
 * The number of property cases from `env.PROPERTY_RUNS`, or `fallback`.
 * @throws Error naming the variable when it is set but not a positive integer
 */
export function propertyRuns(env: Readonly<Record<string, string | undefined>>, fallback: number): number {
  const text = env.PROPERTY_RUNS;
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`PROPERTY_RUNS must be a positive integer, got ${JSON.stringify(text)}`);
  }
  return value;
}
