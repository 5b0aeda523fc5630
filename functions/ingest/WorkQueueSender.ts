import {
  SendMessageBatchCommand,
  type SendMessageBatchCommandOutput,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { JOB_MESSAGE_ATTRIBUTES } from "../../contract/jobs/jobsTableKeys.js";
import type { Deadline } from "../../core/common/Deadline.js";
import { PipelineError, RetriesExhaustedError, TransientError } from "../../core/common/errors.js";
import { httpStatusOf, isTransientNetworkError } from "../../core/common/isTransientNetworkError.js";
import type { RetryPolicy } from "../../core/common/RetryPolicy.js";
import type { FailedLine } from "./types.js";

/** Most entries of one SendMessageBatch (SQS's limit). */
export const SEND_BATCH_ENTRIES = 10;
/** Most bytes of one SendMessageBatch's bodies together (SQS's limit: 1 MiB). */
export const SEND_BATCH_BYTES = 1024 * 1024;

/** SQS error names (JSON or query style, without the `AWS.SimpleQueueService.` prefix) that mean "later". */
const TRANSIENT_SQS_ERRORS = new Set([
  "ThrottlingException",
  "RequestThrottled",
  "ServiceUnavailable",
  "InternalError",
  "InternalFailure",
  "KmsThrottled",
]);

/** One message to send, with the line it came from. */
export interface LineMessage {
  line: number;
  id: string;
  /** The work item's policy (a line refused by the queue is recorded under it). */
  policy: string;
  body: string;
  /** The job the line belongs to: sent as the message's job attributes (`JOB_MESSAGE_ATTRIBUTES`). */
  jobId?: string;
}

/** Some entries of a batch failed for now (SQS `SenderFault: false`); retried by the policy. */
class EntriesFailedError extends TransientError {
  override name = "EntriesFailedError";
}

/** The work queue refused a SendMessageBatch call for good (access, missing queue, invalid request). */
export class WorkQueueError extends PipelineError {
  override name = "WorkQueueError";
  constructor(
    readonly queueUrl: string,
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(`the work queue ${queueUrl} refused SendMessageBatch (${errorName})`, options);
  }
}

/** A SendMessageBatch call failed for now (throttling, 5xx, a reset or refused connection). */
export class TransientWorkQueueError extends TransientError {
  override name = "TransientWorkQueueError";
  constructor(
    readonly queueUrl: string,
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(`the work queue ${queueUrl} is unavailable for now (${errorName})`, options);
  }
}

/**
 * Sends work-item messages with SendMessageBatch (at most {@link SEND_BATCH_ENTRIES} per call),
 * retrying the entries SQS failed for now (`SenderFault: false`) and whole calls that failed
 * transiently, under the pipeline's retry policy.
 */
export class WorkQueueSender {
  constructor(
    private readonly client: SQSClient,
    readonly queueUrl: string,
    private readonly retry: RetryPolicy,
  ) {}

  /**
   * Sends up to 10 messages. Returns the ones that could not be sent: SQS's sender faults at once
   * (`permanent: true`), transient entry failures once the retries ran out (`permanent: false`).
   *
   * @throws RetriesExhaustedError when whole calls kept failing transiently (nothing to report per line).
   * @throws WorkQueueError when the queue refused the call for good.
   */
  async send(messages: readonly LineMessage[], deadline: Deadline): Promise<FailedLine[]> {
    if (messages.length > SEND_BATCH_ENTRIES)
      throw new RangeError(`at most ${SEND_BATCH_ENTRIES} messages per batch`);
    const byEntry = new Map(messages.map((message) => [`l${message.line}`, message]));
    let pending: SendMessageBatchRequestEntry[] = messages.map((message) => ({
      Id: `l${message.line}`,
      MessageBody: message.body,
      ...(message.jobId !== undefined
        ? {
            MessageAttributes: {
              [JOB_MESSAGE_ATTRIBUTES.jobId]: { DataType: "String", StringValue: message.jobId },
              [JOB_MESSAGE_ATTRIBUTES.line]: { DataType: "Number", StringValue: String(message.line) },
            },
          }
        : {}),
    }));
    const failed: FailedLine[] = [];
    const failedFor = (id: string | undefined, code: string, text: string): FailedLine => {
      const message = byEntry.get(id ?? "");
      return { line: message?.line ?? 0, id: message?.id ?? "", code, message: text, permanent: true };
    };
    let lastTransient = new Map<string, { code: string; message: string }>();
    try {
      await this.retry.run(
        async () => {
          let output: SendMessageBatchCommandOutput;
          try {
            output = await this.client.send(
              new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: pending }),
            );
          } catch (error) {
            throw this.#classify(error);
          }
          const retryable = new Set<string>();
          lastTransient = new Map();
          for (const entry of output.Failed ?? []) {
            if (entry.SenderFault)
              failed.push(failedFor(entry.Id, entry.Code ?? "SenderFault", entry.Message ?? ""));
            else {
              retryable.add(entry.Id ?? "");
              lastTransient.set(entry.Id ?? "", {
                code: entry.Code ?? "ServiceFault",
                message: entry.Message ?? "",
              });
            }
          }
          pending = pending.filter((entry) => retryable.has(entry.Id ?? ""));
          if (pending.length > 0) throw new EntriesFailedError(`${pending.length} entries failed for now`);
        },
        { deadline },
      );
    } catch (error) {
      if (!(error instanceof RetriesExhaustedError && error.cause instanceof EntriesFailedError)) throw error;
      for (const entry of pending) {
        const last = lastTransient.get(entry.Id ?? "");
        failed.push({
          ...failedFor(entry.Id, last?.code ?? "ServiceFault", last?.message ?? error.message),
          permanent: false,
        });
      }
    }
    return failed.sort((a, b) => a.line - b.line);
  }

  #classify(error: unknown): TransientWorkQueueError | WorkQueueError {
    const name = (error as { name?: unknown }).name;
    const errorName = typeof name === "string" ? name : "Error";
    const status = httpStatusOf(error);
    const transient =
      isTransientNetworkError(error) ||
      (status !== undefined && (status >= 500 || status === 429)) ||
      TRANSIENT_SQS_ERRORS.has(errorName.replace(/^AWS\.SimpleQueueService\./, ""));
    return transient
      ? new TransientWorkQueueError(this.queueUrl, errorName, { cause: error })
      : new WorkQueueError(this.queueUrl, errorName, { cause: error });
  }
}
