/** Drift options out of their ranges: every problem at once. */
export class DriftOptionsError extends Error {
  override readonly name = "DriftOptionsError";
  /** One line per option out of range. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: ErrorOptions) {
    super(`drift options out of range (fix them and run again): ${problems.join("; ")}`, options);
    this.problems = problems;
  }
}

/** A time range that is not one: unreadable times, or the start not before the end. */
export class DriftRangeError extends Error {
  override readonly name = "DriftRangeError";

  constructor(what: string, options?: ErrorOptions) {
    super(`${what}: give ISO-8601 times (e.g. 2026-12-03T10:00:00Z), the start before the end`, options);
  }
}
