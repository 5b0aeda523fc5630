/**
 * Errors of the decision owners' operations (`decisions submit`, `dlq`, `outcomes`, `classify`).
 * Each carries its data as fields; the commands print the message.
 */

/** Base class of every error an operation raises on purpose. */
export class OperationError extends Error {
  override name = "OperationError";
}

/** An input file could not be read (missing, unreadable, or not what the command takes). */
export class InputFileError extends OperationError {
  override name = "InputFileError";
  constructor(
    /** The file as given. */
    readonly file: string,
    /** What is wrong with it, for a person. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
  }
}

/** The policy folder asked for is loaded, but holds no policy of that name. */
export class PolicyNotInFolderError extends OperationError {
  override name = "PolicyNotInFolderError";
  constructor(
    readonly policy: string,
    readonly dir: string,
    /** The names the folder holds. */
    readonly known: readonly string[],
  ) {
    super(`no policy "${policy}" in ${dir} (it holds: ${known.join(", ") || "none"})`);
  }
}

/**
 * The file given as `decisions up`'s saved JSON line (`--up-info`) cannot be used: the message
 * says why and how to make one.
 */
export class UpInfoError extends OperationError {
  override name = "UpInfoError";
  constructor(
    /** The file. */
    readonly path: string,
    /** What is wrong with it. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `--up-info ${path} ${reason}: save the JSON line a running decisions up printed (decisions up > up.json) and pass that file`,
      options,
    );
  }
}
