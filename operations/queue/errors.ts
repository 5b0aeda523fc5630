import { OperationError } from "../common/errors.js";

export { UpInfoError } from "../common/errors.js";

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
