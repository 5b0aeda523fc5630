/** Errors of calibration: bad labelled data, a policy file that cannot be written, too few labels. */

/** One problem in a labelled-data file. */
export interface LabelledDataProblem {
  /** 1-based line of the JSONL file. */
  line: number;
  /** Field path inside the line's JSON (`["questions", "queue", "label"]`); empty for the whole line. */
  path: (string | number)[];
  /** What is wrong, for a person. */
  message: string;
}

/** The labelled data cannot be used; carries every problem found, not only the first. */
export class LabelledDataError extends Error {
  override name = "LabelledDataError";
  constructor(
    /** Every problem, in file order. */
    readonly problems: readonly LabelledDataProblem[],
    options?: ErrorOptions & { file?: string },
  ) {
    const where = options?.file === undefined ? "" : `${options.file}:`;
    const shown = problems
      .slice(0, 20)
      .map((problem) => `${where}${problem.line} ${problem.path.join(".") || "(line)"}: ${problem.message}`);
    const more = problems.length > 20 ? [`… and ${problems.length - 20} more`] : [];
    super(
      `labelled data has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${[...shown, ...more].join("\n")}`,
      options,
    );
    this.file = options?.file;
  }

  /** The file the data came from, when known. */
  readonly file: string | undefined;
}

/** A policy file cannot be edited as asked (a question that is not a block mapping, a missing key). */
export class PolicyWriteError extends Error {
  override name = "PolicyWriteError";
  constructor(
    /** The key path that could not be edited (`["questions", "queue"]`). */
    readonly path: readonly string[],
    /** Why, for a person. */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`cannot write ${path.join(".")}: ${reason}`, options);
  }
}
