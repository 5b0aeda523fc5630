import {
  AUDIT_QUEUE,
  type OutcomesReader,
  REVIEWED_STATUS,
  type StoredOutcome,
  type StoredOutcomeStatus,
} from "../../core/outcomes/index.js";
import type { Policy } from "../../core/policy/index.js";
import { outcomesToCsv } from "./outcomesToCsv.js";
import { toLabelledDecision } from "./toLabelledDecision.js";

/** What an export writes. */
export type ExportFormat =
  /** One outcome per line, as stored. */
  | "jsonl"
  /** One row per outcome (see `outcomesToCsv`). */
  | "csv"
  /** The reviewed outcomes as labelled data for `decisions calibrate` (see `toLabelledDecision`). */
  | "labelled";

/** Options of {@link exportOutcomes}. */
export interface ExportOutcomesOptions {
  table: OutcomesReader;
  policy: string;
  /** Only this status (`labelled` reads the reviewed and the partially reviewed ones). Default: every status. */
  status?: StoredOutcomeStatus;
  format: ExportFormat;
  /** The policy, loaded: CSV columns in its question order, and the temperatures of labelled data. */
  definition?: Policy;
}

/** Counts of an export, filled in as it runs. */
export interface ExportCounts {
  /** Outcomes read. */
  read: number;
  /** Records written (lines, or CSV rows). */
  written: number;
}

/**
 * Streams the outcomes of one policy as text chunks in the chosen format: JSONL and labelled data
 * line by line as pages arrive; CSV once every outcome is read (its columns depend on all of
 * them). `counts` is updated as it goes. For `labelled`, the reviewed outcomes and those waiting
 * after a partial review; outcomes without a human answer are skipped.
 *
 * @throws OutcomesTableError, MalformedOutcomeError while reading.
 */
export async function* exportOutcomes(
  options: ExportOutcomesOptions,
  counts: ExportCounts = { read: 0, written: 0 },
): AsyncGenerator<string> {
  // Labels: the reviewed outcomes, and those a partial review left waiting (fallback, audit) that
  // already carry a person's answer.
  const pages =
    options.format === "labelled"
      ? options.table.all(options.policy, { partitions: [REVIEWED_STATUS, "fallback", AUDIT_QUEUE] })
      : options.table.all(options.policy, options.status === undefined ? {} : { status: options.status });
  const all: StoredOutcome[] = [];
  for await (const page of pages) {
    counts.read += page.length;
    if (options.format === "csv") {
      all.push(...page);
      continue;
    }
    let chunk = "";
    for (const outcome of page) {
      const record =
        options.format === "labelled" ? toLabelledDecision(outcome, options.definition) : outcome;
      if (record === undefined) continue;
      chunk += `${JSON.stringify(record)}\n`;
      counts.written += 1;
    }
    if (chunk !== "") yield chunk;
  }
  if (options.format === "csv") {
    counts.written = all.length;
    yield outcomesToCsv(
      all,
      options.definition?.questions.map((question) => question.id),
    );
  }
}
