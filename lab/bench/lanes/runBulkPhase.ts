import { PutObjectCommand } from "@aws-sdk/client-s3";
import type { Job } from "../../../contract/index.js";
import { KEY_PREFIX, POLL_MS } from "./constants.js";
import type { LanesRig } from "./LanesRig.js";
import { readOutcomeRows } from "./readOutcomeRows.js";
import { summarizeLatency } from "./summarizeLanes.js";
import type { BulkPhase } from "./types.js";
import { waitForProgress } from "./waitForProgress.js";

/**
 * Puts the job's object and follows its job until its "Decision Job Completed" event, for as long
 * as its lines keep being read or ending; counts the outcome rows under its item ids. `onJob` is
 * told of the job at each poll.
 *
 * @throws Error when ingest fails, or when no job was ever made of the object.
 */
export async function runBulkPhase(
  rig: LanesRig,
  tag: string,
  onJob?: (job: Job | undefined) => void,
): Promise<BulkPhase> {
  const body = rig.workload.bulkBody(tag);
  const key = `${KEY_PREFIX}lanes-${tag}.jsonl`;
  const source = `s3://${rig.stack.bucket}/${key}`;
  const putAt = Date.now();
  await rig.stack.clients.s3.send(
    new PutObjectCommand({
      Bucket: rig.stack.bucket,
      Key: key,
      Body: body,
      ContentType: "application/x-ndjson",
    }),
  );
  let jobId: string | undefined;
  const readJob = async (): Promise<Job | undefined> => {
    jobId ??= (await rig.jobs.newest(10)).find((job) => job.source === source)?.job_id;
    return jobId === undefined ? undefined : await rig.jobs.find(jobId);
  };
  const completion = () => rig.completed.find((detail) => detail.source === source);
  const wait = await waitForProgress({
    done: () => completion() !== undefined || rig.ingestErrors.length > 0,
    progress: async () => {
      const job = await readJob();
      onJob?.(job);
      return job === undefined ? 0 : 1 + job.counts.sent + job.counts.rejected_at_ingest + job.counts.ended;
    },
    stallMs: rig.stallMs,
    pollMs: POLL_MS,
  });
  if (rig.ingestErrors.length > 0) throw new Error(`ingest failed: ${String(rig.ingestErrors[0])}`);
  const job = await readJob();
  if (job === undefined)
    throw new Error(`no job was made of ${source} in ${wait.waitedMs} ms: is ingest running?`);
  const event = completion();
  if (event === undefined)
    rig.log(
      `gave up on the ${tag} job after ${rig.stallMs} ms without progress: ${job.counts.ended} lines ended`,
    );
  const bodyLines = body.split("\n").filter((line) => line.trim() !== "");
  const ms = event !== undefined ? Date.parse(event.completed_at) - putAt : Date.now() - putAt - rig.stallMs;
  const linesDone = event !== undefined ? bodyLines.length : job.counts.ended;
  const rows = await readOutcomeRows(rig, `-${tag}`);
  return {
    lines: bodyLines.length,
    ms,
    lines_per_s: ms > 0 ? Math.round((linesDone / (ms / 1000)) * 10) / 10 : 0,
    job_id: job.job_id,
    status: job.status,
    completed: event !== undefined,
    counts: job.counts,
    outcome_rows: rows.rows,
    evaluation_ms: evaluationOf(rows.endpointMs),
    item_ids: new Set(bodyLines.flatMap((line) => idOf(line) ?? [])).size,
  };
}

/** p50 and p95 (nearest rank) of endpoint times; 0 for none. */
function evaluationOf(endpointMs: readonly number[]): { p50: number; p95: number } {
  if (endpointMs.length === 0) return { p50: 0, p95: 0 };
  const { p50_ms, p95_ms } = summarizeLatency(endpointMs);
  return { p50: p50_ms, p95: p95_ms };
}

function idOf(line: string): string | undefined {
  try {
    const item: unknown = JSON.parse(line);
    const id = (item as { id?: unknown } | null)?.id;
    return typeof id === "string" ? id : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
