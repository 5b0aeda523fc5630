import type { Readable } from "node:stream";
import type { Logger } from "@aws-lambda-powertools/logger";
import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from "@aws-sdk/client-s3";
import type { Outcome, OutcomeStore } from "../outcomes/index.js";
import { summarizeState } from "../outcomes/index.js";
import type { PolicySet } from "../policy/index.js";
import type { Clock } from "../shared/Clock.js";
import { Deadline } from "../shared/Deadline.js";
import { type BadLine, lineId, prepareLine } from "./prepareLine.js";
import { splitLines } from "./splitLines.js";
import type { IngestCheckpoint, ObjectIngestResult } from "./types.js";
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
}

/**
 * Streams one S3 JSONL object (from a checkpoint: a ranged GetObject of the same version), validates
 * each line, sends valid ones to the work queue in batches of 10 and records a `rejected` outcome
 * for each bad one. Memory stays bounded: one line and one batch at a time.
 *
 * It stops at a batch boundary when `maxLinesPerInvocation` lines were read or the deadline
 * passed, and returns the checkpoint after the last line fully handled, so a follow-up invocation
 * sends nothing twice. A SendMessageBatch call that keeps failing also ends the invocation at the
 * checkpoint before that batch.
 *
 * @throws whatever the first GetObject throws (the invocation fails; its input is retried).
 */
export async function ingestObject(
  start: IngestCheckpoint,
  deps: IngestDeps,
  deadline: Deadline,
): Promise<ObjectIngestResult> {
  let output: GetObjectCommandOutput;
  try {
    output = await deps.s3.send(
      new GetObjectCommand({
        Bucket: start.bucket,
        Key: start.key,
        ...(start.versionId !== undefined ? { VersionId: start.versionId } : {}),
        ...(start.byteOffset > 0 ? { Range: `bytes=${start.byteOffset}-` } : {}),
      }),
    );
  } catch (error) {
    // A checkpoint at the very end of the object (it stopped on its last line): nothing is left.
    if (start.byteOffset > 0 && (error as { name?: unknown }).name === "InvalidRange") {
      const { bucket, key, versionId } = start;
      return {
        bucket,
        key,
        ...(versionId ? { versionId } : {}),
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
  const object = { bucket: start.bucket, key: start.key, ...(versionId !== undefined ? { versionId } : {}) };
  const result: ObjectIngestResult = { ...object, linesRead: 0, sent: 0, rejected: 0, failed: [] };
  const body = output.Body as Readable | undefined;
  if (body === undefined) return result;

  let checkpoint = { line: start.line, byteOffset: start.byteOffset };
  let batch: LineMessage[] = [];
  let batchBytes = 0;
  let batchEnd = checkpoint;
  const flush = async (): Promise<boolean> => {
    if (batch.length === 0) {
      checkpoint = batchEnd;
      return true;
    }
    try {
      const failed = await deps.sender.send(batch, deadline);
      result.failed.push(...failed);
      result.sent += batch.length - failed.length;
    } catch (error) {
      deps.logger.error("SendMessageBatch kept failing; stopping at the checkpoint", {
        ...object,
        line: checkpoint.line,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
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
      const end = { line: line.line + 1, byteOffset: line.nextOffset };
      if (line.tooLong || line.text.trim() !== "") {
        const origin = { ...object, line: line.line };
        const prepared = line.tooLong
          ? ({
              kind: "rejected",
              policy: "_unparsed",
              id: "",
              reason: `s3://${object.bucket}/${object.key} line ${line.line}: longer than ${MAX_LINE_BYTES} bytes`,
            } satisfies BadLine)
          : prepareLine(line.text, origin, deps.policies);
        if (prepared.kind === "message") {
          const bytes = Buffer.byteLength(prepared.body);
          if (batch.length === SEND_BATCH_ENTRIES || batchBytes + bytes > SEND_BATCH_BYTES) {
            if (!(await flush())) {
              stopped = true;
              break;
            }
          }
          batch.push({ line: line.line, id: prepared.id, body: prepared.body });
          batchBytes += bytes;
        } else {
          await recordBadLine(prepared, origin, line.text, deps);
          result.rejected += 1;
        }
      }
      batchEnd = end;
      if (batch.length === 0) checkpoint = end;
      if (result.linesRead >= deps.maxLinesPerInvocation || deadline.expired()) {
        stopped = true;
        if (!(await flush())) break;
        break;
      }
    }
    if (!stopped) {
      if (await flush()) return result;
    }
  } finally {
    body.destroy();
  }
  return { ...result, next: { ...object, ...checkpoint } };
}

async function recordBadLine(
  bad: BadLine,
  origin: { bucket: string; key: string; versionId?: string; line: number },
  text: string,
  deps: IngestDeps,
): Promise<void> {
  const at = new Date(deps.clock.now()).toISOString();
  const id = bad.id === "" ? lineId(origin) : bad.id;
  const outcome: Outcome = {
    policy: bad.policy,
    id,
    policy_status: `${bad.policy}#rejected`,
    status: "rejected",
    reason: bad.reason.slice(0, 1000),
    ...(bad.path !== undefined ? { reason_path: bad.path } : {}),
    rules_fired: [],
    source: {
      kind: "s3",
      bucket: origin.bucket,
      key: origin.key,
      ...(origin.versionId !== undefined ? { version_id: origin.versionId } : {}),
      line: origin.line,
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
