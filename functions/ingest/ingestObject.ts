import type { Deadline } from "../../core/common/Deadline.js";
import { TransientError } from "../../core/common/errors.js";
import { IngestLineError } from "./errors.js";
import { farDeadline } from "./farDeadline.js";
import type { IngestDeps } from "./IngestDeps.js";
import { ObjectIngestRun } from "./ObjectIngestRun.js";
import { openObjectRead } from "./openObjectRead.js";
import { MAX_LINE_BYTES, prepareObjectLine } from "./prepareObjectLine.js";
import { resumeAt } from "./resumeAt.js";
import { splitLines } from "./splitLines.js";
import type { IngestCheckpoint, ObjectIngestResult } from "./types.js";

/**
 * Streams one S3 JSONL object (from a checkpoint: a ranged GetObject of the same version), validates
 * each line, sends valid ones to the work queue in batches of 10 and records a `rejected` outcome
 * for each bad one. Memory stays bounded: one line and one batch at a time.
 *
 * A job reads one object version (`getObjectVersion`): a resumed read names the version, or
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
 * Its steps: {@link openObjectRead} (GetObject from the checkpoint, the version, the job),
 * `splitLines`, {@link prepareObjectLine} per line, and an {@link ObjectIngestRun} that sends the
 * batches, records the bad lines and keeps the checkpoint.
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
  const opened = await openObjectRead(start, deps);
  if ("ended" in opened) return opened.ended;
  const { object, body, jobId, result } = opened.read;
  const job = jobId !== undefined ? { jobId } : {};
  const run = new ObjectIngestRun(
    object,
    result,
    { line: start.line, byteOffset: start.byteOffset, ...job, jobLines: start.jobLines ?? 0 },
    deps,
    deadline,
  );

  let stopped = false;
  try {
    for await (const line of splitLines(body, {
      maxLineBytes: MAX_LINE_BYTES,
      firstLine: start.line,
      startOffset: start.byteOffset,
    })) {
      result.linesRead += 1;
      const lineStart = run.batchEnd;
      const blank = !line.tooLong && !line.invalidUtf8 && line.text.trim() === "";
      const end = {
        line: line.line + 1,
        byteOffset: line.nextOffset,
        ...job,
        jobLines: lineStart.jobLines + (blank ? 0 : 1),
      };
      const { text, prepared } = prepareObjectLine(line, object, deps.policies);
      if (prepared?.kind === "message") {
        const { id, policy, body: message } = prepared;
        if (!(await run.add({ line: line.line, id, policy, body: message }))) {
          stopped = true;
          break;
        }
      } else if (prepared !== undefined) {
        const recorded = await run.record(prepared, line.line, text);
        if (recorded !== true) {
          // The lines before it are sent first; the checkpoint is then this line's start.
          const flushed = await run.flush();
          if (flushed && !(recorded instanceof TransientError)) {
            throw new IngestLineError(resumeAt(object, lineStart), { cause: recorded });
          }
          stopped = true;
          break;
        }
        result.rejected += 1;
      }
      run.lineDone(end);
      if (result.linesRead >= deps.maxLinesPerInvocation || deadline.expired()) {
        stopped = true;
        await run.flush();
        break;
      }
    }
    if (!stopped && (await run.flush())) {
      // Read to its end: every line is sent or recorded, so the job knows its line count.
      if (deps.jobs !== undefined && jobId !== undefined) {
        // Blank lines keep their numbers: the last line's number bounds the lines the job counts.
        await deps.jobs.markRead(jobId, run.checkpoint.jobLines, {
          deadline: farDeadline(deps.clock),
          lastLine: run.checkpoint.line - 1,
        });
      }
      return result;
    }
  } finally {
    body.destroy();
  }
  return { ...result, next: resumeAt(object, run.checkpoint) };
}
