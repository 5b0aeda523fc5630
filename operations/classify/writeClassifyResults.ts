import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import {
  type DecisionUsage,
  decisionUsageOf,
  emptyJobCounts,
  type JobCounts,
  type JobManifest,
  JobManifestSchema,
  type JobResultLine,
  OUTCOME_STATUSES,
  OutcomeSchema,
} from "../../contract/index.js";
import { UsageTally } from "../../core/jobs/UsageTally.js";
import { InputFileError } from "../common/errors.js";
import { resultKey } from "./ResultsFile.js";

/** Options of {@link writeClassifyResults}. */
export interface WriteClassifyResultsOptions {
  /** The input file, as given (the manifest's `source`). */
  input: string;
  /** Per input item, its 1-based line in the input, in input order. */
  lines: readonly number[];
  /** Per input item (same order), the policy and id its outcome stands under (`ClassifySummary.keys`). */
  keys: readonly { policy: string; id: string }[];
  /** The outcomes file the run appended to (`--out`). */
  outcomes: string;
  /** Where the results go (one line per input item, in input order). */
  results: string;
  /** Where the manifest goes. */
  manifest: string;
  /** When the run started. */
  startedAt: Date;
  /** Default `() => new Date()`. */
  now?: () => Date;
}

/** What the results writer keeps per outcome of the outcomes file: its results line and identity. */
interface StoredLine {
  line: number | undefined;
  result: Omit<JobResultLine, "line">;
  policyVersion: string | number | undefined;
  model: string | undefined;
  modelSha256: string | undefined;
  policySha256: string | undefined;
  usage: DecisionUsage | undefined;
}

/**
 * Writes `decisions classify`'s results in the jobs' results format (`JobResultLineSchema`: one
 * line per input item, in input order — `line`, `id`, `policy`, `status`, per question the answer
 * and its probability, `reason`; `duplicate` on a line whose id an earlier line had) and a manifest
 * beside it (`JobManifestSchema`: counts, timings, policy versions, models), from the outcomes
 * file the run appended to. The results are written to a temporary name and renamed, then the
 * manifest, so a manifest names complete results.
 *
 * @throws InputFileError when an item has no outcome in the outcomes file (an interrupted run:
 *   run it again to resume) or a line of it is not an outcome.
 */
export async function writeClassifyResults(options: WriteClassifyResultsOptions): Promise<JobManifest> {
  const now = options.now ?? (() => new Date());
  const stored = await readOutcomes(options.outcomes);
  const counts: JobCounts = { ...emptyJobCounts(), lines: options.keys.length, sent: options.keys.length };
  const policies = new Map<
    string,
    { name: string; version?: string | number; sha256?: string; lines: number }
  >();
  const models = new Map<string, { model: string; sha256?: string; lines: number }>();
  const usage = new UsageTally();
  const partial = `${options.results}.partial`;
  const out = createWriteStream(partial);
  let bytes = 0;
  try {
    for (const [index, key] of options.keys.entries()) {
      const line = options.lines[index] ?? index + 1;
      const found = stored.get(resultKey(key.policy, key.id));
      if (found === undefined) {
        throw new InputFileError(
          options.outcomes,
          `holds no outcome for line ${line} (${key.policy}/${key.id}): run the same command again to resume`,
        );
      }
      const duplicate = found.line !== undefined && found.line !== line;
      const text = `${JSON.stringify({ line, ...found.result, ...(duplicate ? { duplicate: true } : {}) })}\n`;
      bytes += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, "drain");
      const status = found.result.status;
      if ((OUTCOME_STATUSES as readonly string[]).includes(status)) {
        counts.outcomes[status as keyof JobCounts["outcomes"]] += 1;
      }
      counts.ended += 1;
      if (duplicate) counts.duplicates += 1;
      // A repeated id shares the outcome of the line before it: its cost counts once.
      else usage.add(found.usage);
      if (found.policyVersion !== undefined || found.policySha256 !== undefined) {
        const id = `${key.policy}\u0000${found.policyVersion ?? ""}\u0000${found.policySha256 ?? ""}`;
        const entry = policies.get(id) ?? {
          name: key.policy,
          ...(found.policyVersion === undefined ? {} : { version: found.policyVersion }),
          ...(found.policySha256 === undefined ? {} : { sha256: found.policySha256 }),
          lines: 0,
        };
        entry.lines += 1;
        policies.set(id, entry);
      }
      if (found.model !== undefined) {
        const id = `${found.model}\u0000${found.modelSha256 ?? ""}`;
        const entry = models.get(id) ?? {
          model: found.model,
          ...(found.modelSha256 === undefined ? {} : { sha256: found.modelSha256 }),
          lines: 0,
        };
        entry.lines += 1;
        models.set(id, entry);
      }
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  await rename(partial, options.results);
  const completed = now();
  const errors = counts.outcomes.rejected + counts.dead_lettered;
  const manifest = JobManifestSchema.parse({
    job_id: classifyJobId(options.input, options.keys),
    source: options.input,
    status: errors > 0 ? "complete_with_errors" : "complete",
    results_uri: pathToFileURL(resolve(options.results)).href,
    result_lines: options.keys.length,
    result_bytes: bytes,
    counts,
    timings: {
      created_at: options.startedAt.toISOString(),
      ended_at: completed.toISOString(),
      completed_at: completed.toISOString(),
      total_ms: Math.max(0, completed.getTime() - options.startedAt.getTime()),
    },
    policies: [...policies.values()],
    models: [...models.values()],
    usage: usage.total(),
  });
  await writeFile(options.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The id of an offline run: `classify-` and 32 hex digits of SHA-256 over the input's absolute
 * path and the items' keys, so the same file classified again names the same job.
 */
function classifyJobId(input: string, keys: readonly { policy: string; id: string }[]): string {
  const hash = createHash("sha256").update(`${resolve(input)}\n`);
  for (const key of keys) hash.update(`${key.policy}\u0000${key.id}\n`);
  return `classify-${hash.digest("hex").slice(0, 32)}`;
}

const UsageFields = OutcomeSchema.pick({ request: true, timings: true, lane: true });

/** What an outcome's endpoint request cost, when the outcome records it in the stored form. */
function usageOf(outcome: Record<string, unknown>): DecisionUsage | undefined {
  const fields = UsageFields.safeParse(outcome);
  return fields.success ? decisionUsageOf(fields.data) : undefined;
}

/** The outcomes file read line by line into what the results need (not whole outcomes). */
async function readOutcomes(path: string): Promise<Map<string, StoredLine>> {
  const stored = new Map<string, StoredLine>();
  const lines = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text.trim() === "") continue;
    let outcome: Record<string, unknown>;
    try {
      outcome = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new InputFileError(
        path,
        `line ${number} is not JSON: it is not an outcomes file of decisions classify`,
        {
          cause: error,
        },
      );
    }
    const { policy, id, status } = outcome;
    if (typeof policy !== "string" || typeof id !== "string" || typeof status !== "string") {
      throw new InputFileError(path, `line ${number} is not an outcome (no policy, id and status)`);
    }
    const key = resultKey(policy, id);
    // Write-once per key, like the table: the first line of a key is the outcome that stands.
    if (stored.has(key)) continue;
    const answers = outcome.answers as
      | Record<string, { answer: string | number | boolean; probability: number }>
      | undefined;
    const source = outcome.source as { line?: unknown } | undefined;
    stored.set(key, {
      line: typeof source?.line === "number" ? source.line : undefined,
      result: {
        id,
        policy,
        status: status as JobResultLine["status"],
        ...(answers === undefined
          ? {}
          : {
              answers: Object.fromEntries(
                Object.entries(answers).map(([question, answer]) => [
                  question,
                  { answer: answer.answer, probability: answer.probability },
                ]),
              ),
            }),
        ...(typeof outcome.reason === "string" ? { reason: outcome.reason } : {}),
      },
      policyVersion:
        typeof outcome.policy_version === "string" || typeof outcome.policy_version === "number"
          ? outcome.policy_version
          : undefined,
      policySha256: typeof outcome.policy_sha256 === "string" ? outcome.policy_sha256 : undefined,
      model: typeof outcome.model === "string" ? outcome.model : undefined,
      modelSha256: typeof outcome.model_sha256 === "string" ? outcome.model_sha256 : undefined,
      usage: usageOf(outcome),
    });
  }
  return stored;
}
