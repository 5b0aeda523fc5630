import type { Deadline } from "../../core/common/Deadline.js";
import { TransientError } from "../../core/common/errors.js";
import { IngestLineError } from "./errors.js";
import type { IngestDeps } from "./IngestDeps.js";
import { type BadLine, lineId, lineLocation } from "./prepareLine.js";
import { recordBadLine } from "./recordBadLine.js";
import { type ReadPosition, resumeAt } from "./resumeAt.js";
import type { FailedLine, IngestedObject, ObjectIngestResult } from "./types.js";
import { type LineMessage, SEND_BATCH_BYTES, SEND_BATCH_ENTRIES } from "./WorkQueueSender.js";

/** Bytes a message's job attributes take of SQS's size limits (names, types, values; generous). */
const JOB_ATTRIBUTE_BYTES = 128;

/**
 * One invocation's progress through one object: the batch of messages being filled, the
 * checkpoint (after the last line fully handled: sent or recorded) and the result. `ingestObject`
 * reads the lines and hands each on; this sends the batches ({@link ObjectIngestRun.flush}),
 * records bad lines ({@link ObjectIngestRun.record}) and moves the checkpoint only past what is done.
 */
export class ObjectIngestRun {
  readonly object: IngestedObject;
  readonly result: ObjectIngestResult;
  /** Where a follow-up invocation resumes: after the last line sent or recorded. */
  checkpoint: ReadPosition;
  /** After the last line read (its message may still wait in the batch). */
  batchEnd: ReadPosition;
  readonly #job: { jobId?: string };
  readonly #deps: IngestDeps;
  readonly #deadline: Deadline;
  #batch: LineMessage[] = [];
  #batchBytes = 0;

  constructor(
    object: IngestedObject,
    result: ObjectIngestResult,
    start: ReadPosition,
    deps: IngestDeps,
    deadline: Deadline,
  ) {
    this.object = object;
    this.result = result;
    this.#job = start.jobId !== undefined ? { jobId: start.jobId } : {};
    this.checkpoint = start;
    this.batchEnd = start;
    this.#deps = deps;
    this.#deadline = deadline;
  }

  /**
   * Adds a valid line's message to the batch, sending the batch first when the message would not
   * fit (SQS: `SEND_BATCH_ENTRIES` entries, `SEND_BATCH_BYTES` bytes). False when that send means
   * the invocation must stop at the checkpoint before the batch.
   */
  async add(message: Omit<LineMessage, "jobId">): Promise<boolean> {
    const bytes = Buffer.byteLength(message.body) + (this.#job.jobId !== undefined ? JOB_ATTRIBUTE_BYTES : 0);
    if (this.#batch.length === SEND_BATCH_ENTRIES || this.#batchBytes + bytes > SEND_BATCH_BYTES) {
      if (!(await this.flush())) return false;
    }
    this.#batch.push({ ...message, ...this.#job });
    this.#batchBytes += bytes;
    return true;
  }

  /** A line is read and handed on: the next one starts at `end`; with nothing waiting, the checkpoint moves there too. */
  lineDone(end: ReadPosition): void {
    this.batchEnd = end;
    if (this.#batch.length === 0) this.checkpoint = end;
  }

  /**
   * Records a bad line's `rejected` outcome. Returns true, or why it could not: a transient error
   * (the line is listed in `failed`; the invocation stops before it and reads it again) or one
   * retrying will not fix (the caller stops with an {@link IngestLineError}).
   */
  async record(bad: BadLine, line: number, text: string): Promise<true | unknown> {
    const object = this.object;
    try {
      await recordBadLine(bad, { ...object, line, ...this.#job }, text, this.#deps);
      return true;
    } catch (error) {
      if (!(error instanceof TransientError)) return error;
      this.#deps.logger.error("a bad line's outcome could not be written for now; stopping before it", {
        ...object,
        line,
        error: error.message,
      });
      this.result.failed.push({
        line,
        id: bad.id === "" ? lineId({ ...object, line }) : bad.id,
        code: error.name,
        message: error.message,
        permanent: false,
      });
      return error;
    }
  }

  /**
   * Sends the batch; false when the invocation must stop at the checkpoint before it (the send
   * kept failing, or some entries failed for now: listed in `failed`). Entries the work queue
   * refuses for good are recorded as `rejected` with SQS's reason.
   * @throws IngestLineError when such an entry's outcome is refused for good.
   */
  async flush(): Promise<boolean> {
    const { object, result } = this;
    const batch = this.#batch;
    if (batch.length === 0) {
      this.checkpoint = this.batchEnd;
      return true;
    }
    let failed: FailedLine[];
    try {
      failed = await this.#deps.sender.send(batch, this.#deadline);
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      const text = error instanceof Error ? error.message : String(error);
      this.#deps.logger.error("SendMessageBatch kept failing; stopping at the checkpoint", {
        ...object,
        line: this.checkpoint.line,
        error: text,
      });
      result.failed.push(
        ...batch.map((message) => ({
          line: message.line,
          id: message.id,
          code: name,
          message: text,
          permanent: false,
        })),
      );
      return false;
    }
    const later = failed.filter((line) => !line.permanent);
    if (later.length > 0) {
      // The batch is read again from the checkpoint before it: its entries that went are sent a
      // second time, and the duplicate is absorbed (an outcome is written once per policy and id).
      result.failed.push(...later);
      return false;
    }
    for (const refused of failed) {
      const message = batch.find((entry) => entry.line === refused.line);
      if (message === undefined) continue;
      this.#deps.logger.warn("the work queue refused a line for good; recording it as rejected", {
        ...object,
        line: refused.line,
        code: refused.code,
      });
      const bad: BadLine = {
        kind: "rejected",
        policy: message.policy,
        id: message.id,
        reason: `${lineLocation({ ...object, line: message.line })}: the work queue refused the message (${refused.code}: ${refused.message})`,
      };
      const recorded = await this.record(bad, message.line, message.body);
      if (recorded === true) continue;
      if (recorded instanceof TransientError) return false;
      throw new IngestLineError(resumeAt(object, this.checkpoint), { cause: recorded });
    }
    result.sent += batch.length - failed.length;
    result.rejected += failed.length;
    this.checkpoint = this.batchEnd;
    this.#batch = [];
    this.#batchBytes = 0;
    return true;
  }
}
