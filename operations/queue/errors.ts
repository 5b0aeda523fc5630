import { OperationError } from "../common/errors.js";

/** The queue a dead-letter queue's messages came from cannot be found: `--to` must name it. */
export class SourceQueueUnknownError extends OperationError {
  override name = "SourceQueueUnknownError";
  constructor(
    /** The dead-letter queue. */
    readonly dlqUrl: string,
    /** Why it is unknown. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cannot tell which queue ${dlqUrl} is the dead-letter queue of: ${reason}; name it with --to`,
      options,
    );
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
