import type { Readable } from "node:stream";
import type { Logger } from "@aws-lambda-powertools/logger";
import type { GetObjectCommandOutput, S3Client } from "@aws-sdk/client-s3";
import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import type { Clock } from "../common/Clock.js";
import { Deadline } from "../common/Deadline.js";
import { TransientError } from "../common/errors.js";
import { stripByteOrderMark } from "../common/stripByteOrderMark.js";
import { truncateText } from "../common/truncateText.js";
import type { JobLedger } from "../jobs/JobLedger.js";
import type { Outcome, OutcomeStore } from "../outcomes/index.js";
import { REASON_CHARS, summarizeState } from "../outcomes/index.js";
import type { PolicySet } from "../policy/index.js";
import { IngestLineError, ObjectChangedError } from "./errors.js";
import { getObjectVersion } from "./getObjectVersion.js";
import { type BadLine, lineId, prepareLine } from "./prepareLine.js";
import { splitLines } from "./splitLines.js";
import type { FailedLine, IngestCheckpoint, ObjectIngestResult } from "./types.js";
import {
  type LineMessage,
  SEND_BATCH_BYTES,
  SEND_BATCH_ENTRIES,
  type WorkQueueSender,
} from "./WorkQueueSender.js";

/** Longest line accepted: SQS's largest message (1 MiB); a longer line is a bad line. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** What {@link ingestObject} works with. */
export interface IngestDeps {
  s3: S3Client;
  sender: WorkQueueSender;
  outcomes: OutcomeStore;
  policies: PolicySet;
  logger: Logger;
  clock: Clock;
  /** Lines read per invocation before it stops at a checkpoint. */
  maxLinesPerInvocation: number;
  /**
   * The jobs table: with it, each object version is a job (created on the first read, its lines
   * counted as they end, `deciding` once read to its end) and each message carries its job and
   * line. Default: none (no jobs).
   */
  jobs?: JobLedger;
}

/** Bytes a message's job attributes take of SQS's size limits (names, types, values; generous). */
const JOB_ATTRIBUTE_BYTES = 128;

/**
 * Streams one S3 JSONL object (from a checkpoint: a ranged GetObject of the same version), validates
 * each line, sends valid ones to the work queue in batches of 10 and records a `rejected` outcome
 * for each bad one. Memory stays bounded: one line and one batch at a time.
 *
 * A job reads one object version ({@link getObjectVersion}): a resumed read names the version, or
 * in a bucket without versioning sends the first read's ETag as `If-Match`. When the object under
 * the key changed meanwhile, nothing more is read: the result's `objectChanged` and the job
 * (`failed`) say so and why, and the lines read before stand. Each line is decoded as UTF-8 on its
 * own, strictly: a line that is not valid UTF-8 is a bad line ("not valid UTF-8"), never decoded
 * with replacement characters (two ids differing only in invalid bytes would become one).
 *
 * Every line ends as a message or an outcome: a line the work queue refuses for good (SQS
 * `SenderFault`, e.g. `InvalidMessageContents` for a U+FFFE or U+FFFF) is recorded as `rejected`
 * with SQS's reason. A byte order mark at the object's start is dropped (see `stripByteOrderMark`).
 *
 * It stops at a batch boundary when `maxLinesPerInvocation` lines were read or the deadline
 * passed, and returns the checkpoint after the last line fully handled, so a follow-up invocation
 * sends nothing twice. A send that keeps failing for now (the whole call, or some of its entries)
 * or a bad line's outcome that cannot be written for now ends the invocation at the checkpoint
 * before that batch or line, listed in `failed`: the follow-up invocation reads them again.
 *
 * @throws whatever GetObject throws but `PreconditionFailed` (the invocation fails; its input is
 *   retried).
 * @throws IngestLineError when the outcomes table refuses a bad line's outcome for good (a missing
 *   table, access denied): the lines before it are sent, and the error names where to resume.
 */
export async function ingestObject(
  start: IngestCheckpoint,
  deps: IngestDeps,
  deadline: Deadline,
): Promise<ObjectIngestResult> {
  let output: GetObjectCommandOutput;
  try {
    output = await getObjectVersion(deps.s3, start);
  } catch (error) {
    if (error instanceof ObjectChangedError) return refuseChangedObject(start, error, deps);
    // A checkpoint at the very end of the object (it stopped on its last line): nothing is left.
    // (A changed object is answered 412 first: preconditions come before the range.)
    if (start.byteOffset > 0 && (error as { name?: unknown }).name === "InvalidRange") {
      const { bucket, key, versionId, etag, jobId } = start;
      if (deps.jobs !== undefined && jobId !== undefined) {
        await deps.jobs.markRead(jobId, start.jobLines ?? 0, { deadline: farDeadline(deps.clock) });
      }
      return {
        ...(jobId !== undefined ? { jobId } : {}),
        bucket,
        key,
        ...(versionId ? { versionId } : {}),
        ...(etag ? { etag } : {}),
        linesRead: 0,
        sent: 0,
        rejected: 0,
        failed: [],
      };
    }
    throw error;
  }
  const versionId =
    start.versionId ?? (output.VersionId && output.VersionId !== "null" ? output.VersionId : undefined);
  // Without versioning, the first read's ETag stands for the version: every later read is bound to it.
  const etag = versionId === undefined ? (start.etag ?? output.ETag) : undefined;
  const object = {
    bucket: start.bucket,
    key: start.key,
    ...(versionId !== undefined ? { versionId } : {}),
    ...(etag !== undefined ? { etag } : {}),
  };
  const result: ObjectIngestResult = { ...object, linesRead: 0, sent: 0, rejected: 0, failed: [] };
  const body = output.Body as Readable | undefined;
  let jobId = start.jobId;
  if (deps.jobs !== undefined && jobId === undefined) {
    const { job } = await deps.jobs.start(object, { deadline: farDeadline(deps.clock) });
    jobId = job.job_id;
    if (job.status !== "reading") {
      // This version was read to its end before: its lines are sent or recorded, its job counts them.
      body?.destroy();
      deps.logger.info("object version already ingested; nothing read", {
        ...object,
        jobId,
        status: job.status,
      });
      return { ...result, jobId, alreadyIngested: true };
    }
  }
  if (jobId !== undefined) result.jobId = jobId;
  if (body === undefined) return result;
  const job = jobId !== undefined ? { jobId } : {};

  let checkpoint = { line: start.line, byteOffset: start.byteOffset, ...job, jobLines: start.jobLines ?? 0 };
  let batch: LineMessage[] = [];
  let batchBytes = 0;
  let batchEnd = checkpoint;
  const where = (line: number) => `s3://${object.bucket}/${object.key} line ${line}`;

  /**
   * Records a bad line's `rejected` outcome. Returns true, or why it could not: a transient error
   * (the line is listed in `failed`; the invocation stops before it and reads it again) or one
   * retrying will not fix (the caller stops with an {@link IngestLineError}).
   */
  const record = async (bad: BadLine, line: number, text: string): Promise<true | unknown> => {
    try {
      await recordBadLine(bad, { ...object, line, ...job }, text, deps);
      return true;
    } catch (error) {
      if (!(error instanceof TransientError)) return error;
      deps.logger.error("a bad line's outcome could not be written for now; stopping before it", {
        ...object,
        line,
        error: error.message,
      });
      result.failed.push({
        line,
        id: bad.id === "" ? lineId({ ...object, line }) : bad.id,
        code: error.name,
        message: error.message,
        permanent: false,
      });
      return error;
    }
  };

  /** Sends the batch; false when the invocation must stop at the checkpoint before it. */
  const flush = async (): Promise<boolean> => {
    if (batch.length === 0) {
      checkpoint = batchEnd;
      return true;
    }
    let failed: FailedLine[];
    try {
      failed = await deps.sender.send(batch, deadline);
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      const text = error instanceof Error ? error.message : String(error);
      deps.logger.error("SendMessageBatch kept failing; stopping at the checkpoint", {
        ...object,
        line: checkpoint.line,
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
      deps.logger.warn("the work queue refused a line for good; recording it as rejected", {
        ...object,
        line: refused.line,
        code: refused.code,
      });
      const bad: BadLine = {
        kind: "rejected",
        policy: message.policy,
        id: message.id,
        reason: `${where(message.line)}: the work queue refused the message (${refused.code}: ${refused.message})`,
      };
      const recorded = await record(bad, message.line, message.body);
      if (recorded === true) continue;
      if (recorded instanceof TransientError) return false;
      throw new IngestLineError(resumeAt(object, checkpoint), { cause: recorded });
    }
    result.sent += batch.length - failed.length;
    result.rejected += failed.length;
    checkpoint = batchEnd;
    batch = [];
    batchBytes = 0;
    return true;
  };

  let stopped = false;
  try {
    for await (const line of splitLines(body, {
      maxLineBytes: MAX_LINE_BYTES,
      firstLine: start.line,
      startOffset: start.byteOffset,
    })) {
      result.linesRead += 1;
      const lineStart = batchEnd;
      const blank = !line.tooLong && !line.invalidUtf8 && line.text.trim() === "";
      const end = {
        line: line.line + 1,
        byteOffset: line.nextOffset,
        ...job,
        jobLines: lineStart.jobLines + (blank ? 0 : 1),
      };
      // Only the object's first line can start with a byte order mark.
      const text = line.line === 1 ? stripByteOrderMark(line.text) : line.text;
      if (line.tooLong || line.invalidUtf8 || text.trim() !== "") {
        const origin = { ...object, line: line.line };
        const unreadable = line.tooLong
          ? `longer than ${MAX_LINE_BYTES} bytes`
          : line.invalidUtf8
            ? "not valid UTF-8 (its bytes are refused, not replaced)"
            : undefined;
        const prepared =
          unreadable !== undefined
            ? ({
                kind: "rejected",
                policy: UNPARSED_POLICY,
                id: "",
                reason: `${where(line.line)}: ${unreadable}`,
              } satisfies BadLine)
            : prepareLine(text, origin, deps.policies);
        if (prepared.kind === "message") {
          const bytes = Buffer.byteLength(prepared.body) + (jobId !== undefined ? JOB_ATTRIBUTE_BYTES : 0);
          if (batch.length === SEND_BATCH_ENTRIES || batchBytes + bytes > SEND_BATCH_BYTES) {
            if (!(await flush())) {
              stopped = true;
              break;
            }
          }
          batch.push({
            line: line.line,
            id: prepared.id,
            policy: prepared.policy,
            body: prepared.body,
            ...job,
          });
          batchBytes += bytes;
        } else {
          const recorded = await record(prepared, line.line, text);
          if (recorded !== true) {
            // The lines before it are sent first; the checkpoint is then this line's start.
            const flushed = await flush();
            if (flushed && !(recorded instanceof TransientError)) {
              throw new IngestLineError(resumeAt(object, lineStart), { cause: recorded });
            }
            stopped = true;
            break;
          }
          result.rejected += 1;
        }
      }
      batchEnd = end;
      if (batch.length === 0) checkpoint = end;
      if (result.linesRead >= deps.maxLinesPerInvocation || deadline.expired()) {
        stopped = true;
        await flush();
        break;
      }
    }
    if (!stopped) {
      if (await flush()) {
        // Read to its end: every line is sent or recorded, so the job knows its line count.
        if (deps.jobs !== undefined && jobId !== undefined) {
          await deps.jobs.markRead(jobId, checkpoint.jobLines, { deadline: farDeadline(deps.clock) });
        }
        return result;
      }
    }
  } finally {
    body.destroy();
  }
  return { ...result, next: resumeAt(object, checkpoint) };
}

/**
 * The object changed under its key while a job read it (see {@link ObjectChangedError}): nothing
 * more is read, and the job ends `failed` with the reason, its lines being those read so far.
 */
async function refuseChangedObject(
  start: IngestCheckpoint,
  error: ObjectChangedError,
  deps: IngestDeps,
): Promise<ObjectIngestResult> {
  const { bucket, key, versionId, etag, jobId } = start;
  deps.logger.error("the object changed while it was being ingested; reading no more of it", {
    bucket,
    key,
    line: start.line,
    expectedEtag: error.expectedEtag,
    currentEtag: error.currentEtag,
    ...(jobId !== undefined ? { jobId } : {}),
  });
  if (deps.jobs !== undefined && jobId !== undefined) {
    await deps.jobs.failReading(jobId, start.jobLines ?? 0, error.message, {
      deadline: farDeadline(deps.clock),
    });
  }
  return {
    ...(jobId !== undefined ? { jobId } : {}),
    bucket,
    key,
    ...(versionId !== undefined ? { versionId } : {}),
    ...(etag !== undefined ? { etag } : {}),
    linesRead: 0,
    sent: 0,
    rejected: 0,
    failed: [],
    objectChanged: error.message,
  };
}

/** The checkpoint to resume from; the job's line count travels only with a job. */
function resumeAt(
  object: { bucket: string; key: string; versionId?: string; etag?: string },
  at: { line: number; byteOffset: number; jobId?: string; jobLines: number },
): IngestCheckpoint {
  const { jobLines, ...rest } = at;
  return { ...object, ...rest, ...(at.jobId !== undefined ? { jobLines } : {}) };
}

async function recordBadLine(
  bad: BadLine,
  origin: { bucket: string; key: string; versionId?: string; etag?: string; line: number; jobId?: string },
  text: string,
  deps: IngestDeps,
): Promise<void> {
  const at = new Date(deps.clock.now()).toISOString();
  const id = bad.id === "" ? lineId(origin) : bad.id;
  // Cut here by code points; the store bounds every field again (boundOutcomeSize).
  const outcome: Outcome = {
    policy: bad.policy,
    id,
    policy_status: `${bad.policy}#rejected`,
    status: "rejected",
    reason: truncateText(bad.reason, REASON_CHARS),
    ...(bad.path !== undefined ? { reason_path: bad.path } : {}),
    rules_fired: [],
    source: {
      kind: "s3",
      bucket: origin.bucket,
      key: origin.key,
      ...(origin.versionId !== undefined ? { version_id: origin.versionId } : {}),
      line: origin.line,
      ...(origin.jobId !== undefined ? { job_id: origin.jobId } : {}),
    },
    created_at: at,
    updated_at: at,
    ...(text !== "" ? summarizeState(text) : {}),
  };
  const recorded = await deps.outcomes.record(outcome, { deadline: farDeadline(deps.clock) });
  if (!recorded.recorded) deps.logger.info("bad line already recorded", { policy: bad.policy, id });
}

/** Bad-line outcomes are written even past the batch deadline: the line is already read. */
function farDeadline(clock: Clock): Deadline {
  return new Deadline(clock.now() + 60_000, clock);
}
