import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { createLambdaContext } from "./createLambdaContext.js";
import { type BatchOutcome, type InvocationResult, readBatchResponse } from "./readBatchResponse.js";
import { toSqsRecord } from "./toSqsRecord.js";
import { VisibilityHeartbeat } from "./VisibilityHeartbeat.js";

/**
 * A Lambda handler for SQS events, as `createDecideHandler` returns it. Its result may be anything,
 * as for Lambda: an `SQSBatchResponse` is read, anything else is judged by {@link readBatchResponse}.
 */
export type SqsBatchHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | unknown>;

/** Options of {@link SqsEventSourcePoller}; the names follow the event source mapping's settings. */
export interface SqsEventSourcePollerOptions {
  /** An SQS client for the queue (with fauxqs: `useQueueUrlAsEndpoint: false`). */
  sqs: SQSClient;
  queueUrl: string;
  /** The queue's ARN, given to the handler as each record's `eventSourceARN`. */
  queueArn: string;
  /** Given to the handler as each record's `awsRegion` and used in the context's ARN. */
  region: string;
  handler: SqsBatchHandler;
  /** Records per invocation at most (BatchSize). Default 10; 1..10000. */
  batchSize?: number;
  /**
   * How long to keep gathering records for a batch after its first one arrived, until `batchSize`
   * is reached (MaximumBatchingWindowInSeconds, here in ms). Default 0: invoke with what one
   * receive returned.
   */
  maximumBatchingWindowMs?: number;
  /** Invocations running at once at most (ScalingConfig.MaximumConcurrency). Default 2. */
  maximumConcurrency?: number;
  /** VisibilityTimeout of each receive, in seconds. Default: the queue's own. */
  visibilityTimeoutSeconds?: number;
  /**
   * Keep the records of a batch hidden while it is gathered and its invocation runs (a
   * {@link VisibilityHeartbeat}: every half visibility timeout, hidden for the full timeout again).
   * Default true. Lambda's mapping does not: the deployed queue's visibility timeout is 6 × the
   * function timeout, so no record outlives it. Locally the visibility timeout is how long a record
   * given back waits, and may be shorter than an invocation (`decisions up --visibility-timeout`):
   * without the heartbeat a record still being decided is received again, each receive counts
   * towards `maxReceiveCount`, and copies of records whose outcome was written reach the DLQ.
   */
  keepInFlightHidden?: boolean;
  /**
   * The function's timeout: `context.getRemainingTimeInMillis()` counts down from it, and an
   * invocation still running then fails as a whole. Default 60000 ms.
   */
  functionTimeoutMs?: number;
  /** The function's name in the context. Default `"decide"`. */
  functionName?: string;
  /** FunctionResponseTypes: ["ReportBatchItemFailures"]. Default true. */
  reportBatchItemFailures?: boolean;
  /** Long-poll wait of a receive while no record is waiting, in seconds. Default 20 (as Lambda). */
  waitTimeSeconds?: number;
  /** A batch stops growing once its bodies reach this many bytes (Lambda's 6 MB payload). Default 6 MiB. */
  maxPayloadBytes?: number;
  /** Called after each invocation, once its succeeded records are deleted. */
  onBatch?: (report: BatchReport) => void;
  /** Called for a failed receive or delete (the poller keeps going, as the mapping does). */
  onError?: (error: unknown) => void;
}

/** One invocation of the handler, as the poller saw it. */
export interface BatchReport {
  records: SQSRecord[];
  outcome: BatchOutcome;
  /** Message ids whose delete failed (they will be delivered again). */
  deleteFailures: string[];
}

/** Counters since start. */
export interface PollerStats {
  batches: number;
  records: number;
  succeeded: number;
  failed: number;
  wholeBatchFailures: number;
  inFlightBatches: number;
  maxInFlightBatches: number;
}

/** The handler was still running when the function timeout passed. */
export class FunctionTimeoutError extends Error {
  override name = "FunctionTimeoutError";
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`the function did not return within its ${timeoutMs} ms timeout`);
    this.timeoutMs = timeoutMs;
  }
}

const RECEIVE_LIMIT = 10;
const DELETE_LIMIT = 10;
const ERROR_BACKOFF_MS = 1_000;

/**
 * Runs a handler over an SQS queue with the semantics of Lambda's SQS event source mapping
 * (standard queues): up to `maximumConcurrency` invocations at once, each with up to `batchSize`
 * records gathered for at most `maximumBatchingWindowMs`, records built as Lambda builds them, a
 * Lambda-like context whose remaining time counts down from the function timeout; afterwards only
 * the records that succeeded are deleted (ReportBatchItemFailures; a throw, a timeout or an
 * invalid response fails the whole batch). Failed records stay in flight: SQS makes them visible
 * again after the visibility timeout and its RedrivePolicy moves them to the DLQ after
 * maxReceiveCount receives — the queue does that, not the poller. One deliberate difference: the
 * records of a batch are kept hidden while it is gathered and invoked (`keepInFlightHidden`), so a
 * visibility timeout shorter than an invocation (set locally to make given-back records return
 * sooner) sends no copy of a record still being decided to the DLQ.
 *
 * No library does this locally (Lambda's pollers are part of the service), hence by hand.
 *
 * @example
 * const poller = new SqsEventSourcePoller({ sqs, queueUrl, queueArn, region, handler }).start();
 * await poller.stop(); // stops receiving, lets in-flight batches finish and be deleted
 */
export class SqsEventSourcePoller {
  readonly #options: Required<
    Omit<SqsEventSourcePollerOptions, "visibilityTimeoutSeconds" | "onBatch" | "onError">
  > &
    Pick<SqsEventSourcePollerOptions, "visibilityTimeoutSeconds" | "onBatch" | "onError">;
  /** Aborted by {@link stop}: no new receive starts, pauses end. */
  readonly #stop = new AbortController();
  /** Aborted by a stop that abandons its receives: the receive in progress is cut off. */
  readonly #abandon = new AbortController();
  #workers: Promise<void>[] = [];
  /** The heartbeat of the records in flight, once the visibility timeout is known. */
  #heartbeat: VisibilityHeartbeat | undefined;
  /** Reading the queue's visibility timeout for {@link #heartbeat}, while that is under way. */
  #heartbeatStarting: Promise<VisibilityHeartbeat> | undefined;
  #stopping: Promise<void> | undefined;
  readonly #stats: PollerStats = {
    batches: 0,
    records: 0,
    succeeded: 0,
    failed: 0,
    wholeBatchFailures: 0,
    inFlightBatches: 0,
    maxInFlightBatches: 0,
  };

  /** @throws {RangeError} for a batch size, window or concurrency outside what Lambda allows. */
  constructor(options: SqsEventSourcePollerOptions) {
    this.#options = {
      batchSize: 10,
      maximumBatchingWindowMs: 0,
      maximumConcurrency: 2,
      functionTimeoutMs: 60_000,
      functionName: "decide",
      reportBatchItemFailures: true,
      keepInFlightHidden: true,
      waitTimeSeconds: 20,
      maxPayloadBytes: 6 * 1024 * 1024,
      ...withoutUndefined(options),
      sqs: options.sqs,
      queueUrl: options.queueUrl,
      queueArn: options.queueArn,
      region: options.region,
      handler: options.handler,
    };
    const { batchSize, maximumBatchingWindowMs, maximumConcurrency } = this.#options;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
      throw new RangeError(`batchSize must be an integer in 1..10000, got ${batchSize}`);
    }
    if (batchSize > RECEIVE_LIMIT && maximumBatchingWindowMs <= 0) {
      // Lambda's rule: more than 10 records per batch needs a batching window.
      throw new RangeError("a batchSize above 10 needs a maximumBatchingWindowMs above 0");
    }
    if (!(maximumBatchingWindowMs >= 0 && maximumBatchingWindowMs <= 300_000)) {
      throw new RangeError(`maximumBatchingWindowMs must lie in 0..300000, got ${maximumBatchingWindowMs}`);
    }
    if (!Number.isInteger(maximumConcurrency) || maximumConcurrency < 1) {
      throw new RangeError(`maximumConcurrency must be a positive integer, got ${maximumConcurrency}`);
    }
  }

  /** Starts the pollers (one per unit of concurrency). Returns this. */
  start(): this {
    if (this.#workers.length > 0 || this.#stopping !== undefined) return this;
    for (let slot = 0; slot < this.#options.maximumConcurrency; slot++) this.#workers.push(this.#work());
    return this;
  }

  /** A copy of the counters. */
  stats(): PollerStats {
    return { ...this.#stats };
  }

  /** The mapping's settings this poller runs with (its options after the defaults). */
  get settings(): {
    batchSize: number;
    maximumBatchingWindowMs: number;
    maximumConcurrency: number;
    functionTimeoutMs: number;
    reportBatchItemFailures: boolean;
  } {
    const {
      batchSize,
      maximumBatchingWindowMs,
      maximumConcurrency,
      functionTimeoutMs,
      reportBatchItemFailures,
    } = this.#options;
    return {
      batchSize,
      maximumBatchingWindowMs,
      maximumConcurrency,
      functionTimeoutMs,
      reportBatchItemFailures,
    };
  }

  /**
   * Stops receiving: no receive starts after it; a receive in progress is let finish (a long poll
   * ends within `waitTimeSeconds`) and the handler is invoked for what it and the batch being
   * gathered brought; then waits for every in-flight invocation and its deletes. Idempotent.
   *
   * A receive in progress is not aborted by default because aborting it does not undo it: SQS
   * (and fauxqs) answer the request anyway, and the messages it takes stay invisible for the
   * visibility timeout with nobody to handle them — the next poller on the queue sees them only
   * then (measured: a backlog sent just after a stop waited out a 240 s visibility timeout).
   *
   * @param options.abandonReceive Cut off a receive in progress instead (the stop is at once):
   *   for a stop after which the queue is not read again, as when the whole stack goes away.
   */
  stop(options: { abandonReceive?: boolean } = {}): Promise<void> {
    if (options.abandonReceive === true) this.#abandon.abort();
    this.#stopping ??= (async () => {
      this.#stop.abort();
      await Promise.all(this.#workers);
    })();
    return this.#stopping;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  async #work(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      let messages: Message[];
      try {
        messages = await this.#gather();
      } catch (error) {
        this.#options.onError?.(error);
        await sleep(ERROR_BACKOFF_MS, this.#stop.signal);
        continue;
      }
      if (messages.length > 0) await this.#invoke(messages);
    }
  }

  /** One batch: the first receive long-polls; later ones fill it until the window or batch size ends it. */
  async #gather(): Promise<Message[]> {
    const { batchSize, maximumBatchingWindowMs, maxPayloadBytes } = this.#options;
    const messages: Message[] = [];
    let payload = 0;
    let windowEnd = Number.POSITIVE_INFINITY;
    while (messages.length < batchSize && payload < maxPayloadBytes && !this.#stop.signal.aborted) {
      const remainingWindow = windowEnd - Date.now();
      if (messages.length > 0 && remainingWindow <= 0) break;
      const waitSeconds =
        messages.length === 0
          ? this.#options.waitTimeSeconds
          : Math.min(this.#options.waitTimeSeconds, Math.floor(remainingWindow / 1000));
      let received: Message[];
      try {
        received = await this.#receive(Math.min(RECEIVE_LIMIT, batchSize - messages.length), waitSeconds);
      } catch (error) {
        // A stop abandoned the receive: what was gathered still runs; anything else is an error.
        if (this.#abandon.signal.aborted) break;
        if (messages.length === 0) throw error;
        this.#options.onError?.(error);
        break;
      }
      if (received.length > 0 && messages.length === 0) windowEnd = Date.now() + maximumBatchingWindowMs;
      if (received.length > 0 && this.#options.keepInFlightHidden) await this.#keepHidden(received);
      for (const message of received) {
        messages.push(message);
        payload += Buffer.byteLength(message.Body ?? "");
      }
      if (maximumBatchingWindowMs === 0 && messages.length > 0) break;
      // A short receive inside the window: wait a little rather than spin on WaitTimeSeconds 0.
      if (received.length === 0 && messages.length > 0 && waitSeconds === 0) {
        await sleep(Math.min(50, Math.max(0, windowEnd - Date.now())), this.#stop.signal);
      }
    }
    return messages;
  }

  /**
   * Keeps the messages hidden until their invocation ended ({@link VisibilityHeartbeat}), made on
   * first use with the receives' visibility timeout, else the queue's own (GetQueueAttributes, read
   * again on the next use when that failed: meanwhile the messages are not kept hidden, as without
   * the heartbeat, and the error goes to `onError`).
   */
  async #keepHidden(messages: Message[]): Promise<void> {
    if (this.#heartbeat === undefined) {
      const { sqs, queueUrl, visibilityTimeoutSeconds, onError } = this.#options;
      this.#heartbeatStarting ??= (async () => {
        let seconds = visibilityTimeoutSeconds;
        if (seconds === undefined) {
          const answer = await sqs.send(
            new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["VisibilityTimeout"] }),
          );
          seconds = Number.parseInt(answer.Attributes?.VisibilityTimeout ?? "30", 10);
        }
        return new VisibilityHeartbeat({
          sqs,
          queueUrl,
          visibilityTimeoutSeconds: seconds,
          ...(onError === undefined ? {} : { onError }),
        });
      })();
      try {
        this.#heartbeat = await this.#heartbeatStarting;
      } catch (error) {
        this.#heartbeatStarting = undefined;
        this.#options.onError?.(error);
        return;
      }
    }
    this.#heartbeat.keep(messages);
  }

  async #receive(max: number, waitSeconds: number): Promise<Message[]> {
    const answer = await this.#options.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.#options.queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: waitSeconds,
        VisibilityTimeout: this.#options.visibilityTimeoutSeconds,
        MessageSystemAttributeNames: ["All"],
        MessageAttributeNames: ["All"],
      }),
      { abortSignal: this.#abandon.signal },
    );
    return answer.Messages ?? [];
  }

  async #invoke(messages: Message[]): Promise<void> {
    const { queueArn, region, functionName, functionTimeoutMs, reportBatchItemFailures } = this.#options;
    const records = messages.map((message) => toSqsRecord(message, { queueArn, region }));
    const stats = this.#stats;
    stats.inFlightBatches++;
    stats.maxInFlightBatches = Math.max(stats.maxInFlightBatches, stats.inFlightBatches);
    try {
      const context = createLambdaContext({ functionName, region, timeoutMs: functionTimeoutMs });
      let result: InvocationResult;
      try {
        result = await invokeWithTimeout(
          this.#options.handler,
          { Records: records },
          context,
          functionTimeoutMs,
        );
      } finally {
        // Done or given back: the records that failed come back after the visibility timeout.
        this.#heartbeat?.release(records.map((record) => record.receiptHandle));
      }
      const outcome = readBatchResponse(records, result, reportBatchItemFailures);
      const deleteFailures = await this.#delete(outcome.succeeded);
      stats.batches++;
      stats.records += records.length;
      stats.succeeded += outcome.succeeded.length;
      stats.failed += outcome.failed.length;
      if (outcome.wholeBatchFailure !== undefined) stats.wholeBatchFailures++;
      this.#options.onBatch?.({ records, outcome, deleteFailures });
    } finally {
      stats.inFlightBatches--;
    }
  }

  /** Deletes the records (DeleteMessageBatch, 10 at a time); returns the ids whose delete failed. */
  async #delete(records: SQSRecord[]): Promise<string[]> {
    const failed: string[] = [];
    for (let start = 0; start < records.length; start += DELETE_LIMIT) {
      const chunk = records.slice(start, start + DELETE_LIMIT);
      try {
        const answer = await this.#options.sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: this.#options.queueUrl,
            Entries: chunk.map((record, index) => ({
              Id: String(index),
              ReceiptHandle: record.receiptHandle,
            })),
          }),
        );
        for (const failure of answer.Failed ?? []) {
          const record = chunk[Number(failure.Id)];
          if (record !== undefined) failed.push(record.messageId);
        }
        if ((answer.Failed ?? []).length > 0) this.#options.onError?.(answer.Failed);
      } catch (error) {
        failed.push(...chunk.map((record) => record.messageId));
        this.#options.onError?.(error);
      }
    }
    return failed;
  }
}

/**
 * Runs the handler and races it against the function timeout. A timed-out handler keeps running
 * in the background (a process cannot stop a promise; Lambda would freeze the sandbox): its late
 * result is ignored, as Lambda ignores it.
 */
async function invokeWithTimeout(
  handler: SqsBatchHandler,
  event: SQSEvent,
  context: Context,
  timeoutMs: number,
): Promise<InvocationResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<InvocationResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: new FunctionTimeoutError(timeoutMs) }), timeoutMs);
  });
  const run = Promise.resolve()
    .then(() => handler(event, context))
    .then(
      (value): InvocationResult => ({ ok: true, value }),
      (error: unknown): InvocationResult => ({ ok: false, error }),
    );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, each]) => each !== undefined)) as Partial<T>;
}
