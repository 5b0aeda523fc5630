import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { JobCompletedDetail } from "../../contract/jobs/JobCompletedEventSchema.js";
import type { JobManifest, JobUsage } from "../../contract/jobs/JobManifestSchema.js";
import {
  type JobLineItem,
  type JobResultLine,
  JobResultLineSchema,
} from "../../contract/jobs/JobResultLineSchema.js";
import { isFinalJobStatus, type Job } from "../../contract/jobs/JobSchema.js";
import {
  JOB_MANIFEST_FILE,
  JOB_RESULTS_FILE,
  JOB_RESULTS_PREFIX,
} from "../../contract/jobs/jobsTableKeys.js";
import { type Clock, systemClock } from "../common/Clock.js";
import { Deadline } from "../common/Deadline.js";
import { JobResultsMismatchError } from "./errors.js";
import type { JobLedger } from "./JobLedger.js";
import { jobCompletedDetailOf } from "./jobCompletedDetailOf.js";
import { UsageTally } from "./UsageTally.js";

/** Publishes a job's "Decision Job Completed" event (see {@link JobResultsWriterOptions.publish}). */
export type JobCompletedPublisher = (detail: JobCompletedDetail) => Promise<void>;

/** Options of a {@link JobResultsWriter}. */
export interface JobResultsWriterOptions {
  ledger: JobLedger;
  s3: S3Client;
  /**
   * Where results go: `s3://<bucket>/<prefix><job_id>/…`. Default bucket: the job's own (the
   * ingest bucket); default prefix {@link JOB_RESULTS_PREFIX}.
   */
  bucket?: string;
  prefix?: string;
  /**
   * Bytes per uploaded part (S3's multipart minimum is 5 MiB for every part but the last). A
   * results object that fits in one part is written with one PutObject. Default 8 MiB.
   */
  partBytes?: number;
  /** Line items read per Query. Default 500. */
  pageSize?: number;
  /**
   * Called with the completion event's detail once the job's final status is written (`failed`
   * included). On AWS
   * nothing is passed: a Pipe on the jobs table's stream publishes that change to the outcomes bus
   * (as the outcomes Pipe does for outcomes); the local stack passes its own bus here.
   */
  publish?: JobCompletedPublisher;
  /** Default: the system clock. */
  clock?: Clock;
}

/** What {@link JobResultsWriter.write} did. */
export type JobResultsOutcome =
  | { written: true; detail: JobCompletedDetail; manifest: JobManifest }
  | { written: false; why: "unknown job" | "already final" | "not ended"; job?: Job };

/** Bytes per part by default (S3 wants at least 5 MiB in every part but the last). */
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

/**
 * Writes a job's results once its last line has ended: the JSONL results (one line per input line
 * that is a job line, in input order, read from the jobs table page by page and uploaded in parts,
 * so memory holds one page and one part whatever the job's size), then the manifest, then the
 * final status (conditional: a second writer for the same job finds it final and stops), then the
 * completion event. Safe to run again for the same job: the objects are overwritten with the same
 * content until the status is final.
 */
export class JobResultsWriter {
  readonly #options: JobResultsWriterOptions;
  readonly #clock: Clock;

  constructor(options: JobResultsWriterOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Writes the results of `jobId` if its lines have all ended and it is not final yet.
   *
   * @throws whatever S3 or DynamoDB throw (the trigger retries; nothing final was written).
   * @throws JobResultsMismatchError when the line items do not match the job's counts (a job's
   *   lines are then not all stored; the job is marked `failed` with that reason, and its
   *   completion event, status `failed`, is published).
   */
  async write(jobId: string): Promise<JobResultsOutcome> {
    const { ledger } = this.#options;
    const deadline = () => new Deadline(this.#clock.now() + 60_000, this.#clock);
    const job = await ledger.get(jobId);
    if (job === undefined) return { written: false, why: "unknown job" };
    if (isFinalJobStatus(job.status)) return { written: false, why: "already final", job };
    if (job.status !== "deciding" || job.ended_at === undefined)
      return { written: false, why: "not ended", job };

    const bucket = this.#options.bucket ?? job.bucket;
    const folder = `${this.#options.prefix ?? JOB_RESULTS_PREFIX}${jobId}/`;
    const resultsKey = `${folder}${JOB_RESULTS_FILE}`;
    const manifestKey = `${folder}${JOB_MANIFEST_FILE}`;
    const results_uri = `s3://${bucket}/${resultsKey}`;
    const manifest_uri = `s3://${bucket}/${manifestKey}`;

    const audit = new ManifestTally();
    const { lines, bytes } = await this.#upload(
      bucket,
      resultsKey,
      ledger.lines(jobId, this.#options.pageSize),
      audit,
    );
    const completed_at = new Date(this.#clock.now()).toISOString();
    const expected = job.counts.lines ?? 0;
    if (lines !== expected) {
      const reason = `the jobs table holds ${lines} ended lines for ${expected} lines counted; results not complete`;
      const failed = await ledger.complete(
        jobId,
        { status: "failed", completed_at, reason, counts: job.counts },
        { deadline: deadline() },
      );
      // A failed job is completed too: its event goes out as on AWS, where the Pipe publishes every final status.
      if (failed && this.#options.publish !== undefined)
        await this.#options.publish(jobCompletedDetailOf({ ...job, status: "failed", completed_at, reason }));
      throw new JobResultsMismatchError(jobId, reason);
    }
    const errors = job.counts.outcomes.rejected + job.counts.dead_lettered;
    const status = errors > 0 ? "complete_with_errors" : "complete";
    const manifest: JobManifest = {
      job_id: jobId,
      source: job.source,
      ...(job.version_id !== undefined ? { version_id: job.version_id } : {}),
      status,
      results_uri,
      result_lines: lines,
      result_bytes: bytes,
      counts: job.counts,
      timings: timingsOf(job, completed_at),
      policies: audit.policies(),
      models: audit.models(),
      usage: audit.usage(),
    };
    await this.#options.s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: manifestKey,
        Body: `${JSON.stringify(manifest, null, 2)}\n`,
        ContentType: "application/json",
      }),
    );
    const won = await ledger.complete(
      jobId,
      { status, completed_at, results_uri, manifest_uri, counts: job.counts },
      { deadline: deadline() },
    );
    if (!won) return { written: false, why: "already final", job };
    const detail = jobCompletedDetailOf({ ...job, status, completed_at, results_uri, manifest_uri });
    if (this.#options.publish !== undefined) await this.#options.publish(detail);
    return { written: true, detail, manifest };
  }

  /**
   * Streams the lines into one object: parts of `partBytes`, a single PutObject when the whole
   * fits in the first part. Aborts the multipart upload on failure (no orphaned parts).
   */
  async #upload(
    bucket: string,
    key: string,
    items: AsyncIterable<JobLineItem>,
    audit: ManifestTally,
  ): Promise<{ lines: number; bytes: number }> {
    const s3 = this.#options.s3;
    const partBytes = Math.max(this.#options.partBytes ?? DEFAULT_PART_BYTES, 1);
    const contentType = "application/x-ndjson";
    let chunks: Buffer[] = [];
    let pending = 0;
    let lines = 0;
    let bytes = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    const sendPart = async () => {
      if (uploadId === undefined) {
        const created = await s3.send(
          new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
        );
        uploadId = created.UploadId;
        if (uploadId === undefined) throw new Error(`S3 gave no UploadId for s3://${bucket}/${key}`);
      }
      const body = Buffer.concat(chunks);
      chunks = [];
      pending = 0;
      const PartNumber = parts.length + 1;
      const uploaded = await s3.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }),
      );
      parts.push({ PartNumber, ...(uploaded.ETag !== undefined ? { ETag: uploaded.ETag } : {}) });
    };
    try {
      for await (const item of items) {
        audit.add(item);
        const chunk = Buffer.from(`${JSON.stringify(resultLineOfItem(item))}\n`);
        chunks.push(chunk);
        pending += chunk.byteLength;
        bytes += chunk.byteLength;
        lines += 1;
        if (pending >= partBytes) await sendPart();
      }
      if (uploadId === undefined) {
        await s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: Buffer.concat(chunks),
            ContentType: contentType,
          }),
        );
        return { lines, bytes };
      }
      if (pending > 0) await sendPart();
      await s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
      return { lines, bytes };
    } catch (error) {
      if (uploadId !== undefined) {
        await s3
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw error;
    }
  }
}

/** The results line of a line item, keys in the schema's order (no table fields). */
function resultLineOfItem(item: JobLineItem): JobResultLine {
  return JobResultLineSchema.parse({
    line: item.line,
    id: item.id,
    policy: item.policy,
    status: item.status,
    ...(item.answers !== undefined ? { answers: item.answers } : {}),
    ...(item.reason !== undefined ? { reason: item.reason } : {}),
    ...(item.duplicate !== undefined ? { duplicate: item.duplicate } : {}),
  });
}

/**
 * Policy versions, models and endpoint usage of a job's lines; a handful of entries whatever the
 * job's size.
 */
class ManifestTally {
  readonly #usage = new UsageTally();
  readonly #policies = new Map<
    string,
    { name: string; version?: string | number; sha256?: string; lines: number }
  >();
  readonly #models = new Map<string, { model: string; sha256?: string; lines: number }>();

  add(item: JobLineItem): void {
    // A line that repeated an id shares the outcome of the line before it: its cost counts once.
    if (item.duplicate !== true) this.#usage.add(item.usage);
    if (item.policy_version !== undefined || item.policy_sha256 !== undefined) {
      const key = JSON.stringify([item.policy, item.policy_version, item.policy_sha256]);
      const entry = this.#policies.get(key) ?? {
        name: item.policy,
        ...(item.policy_version !== undefined ? { version: item.policy_version } : {}),
        ...(item.policy_sha256 !== undefined ? { sha256: item.policy_sha256 } : {}),
        lines: 0,
      };
      entry.lines += 1;
      this.#policies.set(key, entry);
    }
    if (item.model !== undefined) {
      const key = JSON.stringify([item.model, item.model_sha256]);
      const entry = this.#models.get(key) ?? {
        model: item.model,
        ...(item.model_sha256 !== undefined ? { sha256: item.model_sha256 } : {}),
        lines: 0,
      };
      entry.lines += 1;
      this.#models.set(key, entry);
    }
  }

  policies() {
    return [...this.#policies.values()];
  }

  models() {
    return [...this.#models.values()];
  }

  usage(): JobUsage {
    return this.#usage.total();
  }
}

function timingsOf(job: Job, completedAt: string): JobManifest["timings"] {
  const ms = (from: string | undefined, to: string | undefined) =>
    from === undefined || to === undefined ? undefined : Math.max(0, Date.parse(to) - Date.parse(from));
  const reading = ms(job.created_at, job.read_at);
  const deciding = ms(job.created_at, job.ended_at);
  const writing = ms(job.ended_at, completedAt);
  return {
    created_at: job.created_at,
    ...(job.read_at !== undefined ? { read_at: job.read_at } : {}),
    ...(job.ended_at !== undefined ? { ended_at: job.ended_at } : {}),
    completed_at: completedAt,
    ...(reading !== undefined ? { reading_ms: reading } : {}),
    ...(deciding !== undefined ? { deciding_ms: deciding } : {}),
    ...(writing !== undefined ? { writing_ms: writing } : {}),
    total_ms: ms(job.created_at, completedAt) ?? 0,
  };
}
