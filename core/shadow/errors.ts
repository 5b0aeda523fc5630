/** A policy's shadow records hold several candidates and the report was not told which one to compare. */
export class SeveralCandidatesError extends Error {
  override name = "SeveralCandidatesError";
  constructor(
    /** The policy whose records were read. */
    readonly policy: string,
    /** The candidates' names, sorted. */
    readonly candidates: readonly string[],
  ) {
    super(
      `the shadow records of ${policy} hold ${candidates.length} candidates (${candidates.join(", ")}); choose one (decisions shadow report --candidate, or the console's candidate choice)`,
    );
  }
}
