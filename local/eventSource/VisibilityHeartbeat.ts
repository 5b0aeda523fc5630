import { ChangeMessageVisibilityBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";

/** Options of a {@link VisibilityHeartbeat}. */
export interface VisibilityHeartbeatOptions {
  sqs: Pick<SQSClient, "send">;
  queueUrl: string;
  /**
   * The queue's visibility timeout in seconds: each beat hides the kept messages for this long
   * again, every half of it. 0: no beat (a message is meant to be visible at once).
   */
  visibilityTimeoutSeconds: number;
  /** Called for a beat that failed (the messages may then be received again). */
  onError?: (error: unknown) => void;
}

const CHANGE_LIMIT = 10;

/**
 * Keeps received messages hidden while they are being handled, as long-running SQS consumers do:
 * every half visibility timeout, each kept message's visibility is set to the full timeout again
 * (ChangeMessageVisibilityBatch). A message handled longer than the visibility timeout is then not
 * received a second time meanwhile — each receive counts towards the redrive policy's
 * `maxReceiveCount`, and a copy received while the first is still running would be dead-lettered
 * although its outcome was written. A message no longer kept comes back at most one visibility
 * timeout after its last beat. The timer does not keep the process alive.
 *
 * @example
 * const heartbeat = new VisibilityHeartbeat({ sqs, queueUrl, visibilityTimeoutSeconds: 30 });
 * heartbeat.keep(messages);
 * try { await handle(messages); } finally { heartbeat.release(messages); }
 */
export class VisibilityHeartbeat {
  readonly #options: VisibilityHeartbeatOptions;
  /** Receipt handles of the messages being handled. */
  readonly #kept = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: VisibilityHeartbeatOptions) {
    this.#options = options;
  }

  /** Keeps these messages hidden until {@link release}. */
  keep(messages: ReadonlyArray<{ ReceiptHandle?: string | undefined }>): void {
    if (this.#options.visibilityTimeoutSeconds <= 0) return;
    for (const { ReceiptHandle } of messages) if (ReceiptHandle !== undefined) this.#kept.add(ReceiptHandle);
    if (this.#timer === undefined && this.#kept.size > 0) {
      this.#timer = setInterval(() => void this.#beat(), (this.#options.visibilityTimeoutSeconds * 1000) / 2);
      this.#timer.unref();
    }
  }

  /** Stops keeping these messages hidden (by their receipt handles). */
  release(receiptHandles: Iterable<string>): void {
    for (const handle of receiptHandles) this.#kept.delete(handle);
    if (this.#kept.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async #beat(): Promise<void> {
    const handles = [...this.#kept];
    for (let start = 0; start < handles.length; start += CHANGE_LIMIT) {
      const chunk = handles.slice(start, start + CHANGE_LIMIT);
      try {
        const answer = await this.#options.sqs.send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: this.#options.queueUrl,
            Entries: chunk.map((handle, index) => ({
              Id: String(index),
              ReceiptHandle: handle,
              VisibilityTimeout: this.#options.visibilityTimeoutSeconds,
            })),
          }),
        );
        // A message released (and deleted) while the beat was on its way is no failure.
        const failed = (answer.Failed ?? []).filter((entry) => this.#kept.has(chunk[Number(entry.Id)] ?? ""));
        if (failed.length > 0) this.#options.onError?.(failed);
      } catch (error) {
        this.#options.onError?.(error);
      }
    }
  }
}
