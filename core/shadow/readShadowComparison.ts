import type { OutcomesReader, ShadowRecord, ShadowRecordStore } from "../outcomes/index.js";
import { asDecided, type DecidedItem, shadowDecision } from "./asDecided.js";
import { SeveralCandidatesError } from "./errors.js";

/** Options of {@link readShadowComparison}. */
export interface ReadShadowComparisonOptions {
  shadows: Pick<ShadowRecordStore, "latest">;
  outcomes: Pick<OutcomesReader, "get">;
  policy: string;
  /** ISO-8601 times of the shadow records read (inclusive). Default: all. */
  since?: string;
  until?: string;
  /** The candidate to compare; required when the records hold more than one. */
  candidate?: string;
}

/** Live outcomes and a candidate's results of the same items, ready to compare. */
export interface ShadowComparisonInput {
  /** The candidate compared, as its newest record names it. */
  candidate: ShadowRecord["candidate"] | undefined;
  /** Shadow records read (the newest per item). */
  records: number;
  /** Live decisions (as decided, before reviews) by item id. */
  live: Map<string, DecidedItem>;
  /** The candidate's decisions by item id. */
  shadow: Map<string, DecidedItem>;
  /** Item id → question → a person's answer on the live outcome. */
  labels: Map<string, Record<string, string | number | boolean>>;
  /** Items whose candidate failed (no result), with why. */
  failed: Array<{ id: string; error: string; reason: string }>;
  /** Items shadowed whose live outcome is not in the table (expired, or written elsewhere). */
  missing_live: string[];
}

/**
 * Reads a policy's shadow records (the newest per item) and the live outcome of each shadowed
 * item, for `decisions shadow report`. Live outcomes are taken as the pipeline decided them (see
 * {@link asDecided}); their people's answers become the labels.
 * @throws SeveralCandidatesError when the records hold several candidates and none was chosen.
 * @throws what the store and the reader throw (OutcomesTableError, …).
 */
export async function readShadowComparison(
  options: ReadShadowComparisonOptions,
): Promise<ShadowComparisonInput> {
  const records = await options.shadows.latest(options.policy, {
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.until === undefined ? {} : { until: options.until }),
    ...(options.candidate === undefined ? {} : { candidate: options.candidate }),
  });
  const names = [...new Set(records.map((record) => record.candidate.name))].sort();
  if (names.length > 1) throw new SeveralCandidatesError(options.policy, names);
  const input: ShadowComparisonInput = {
    candidate: records.at(-1)?.candidate,
    records: records.length,
    live: new Map(),
    shadow: new Map(),
    labels: new Map(),
    failed: [],
    missing_live: [],
  };
  for (const record of records) {
    if (record.result === undefined) {
      input.failed.push({
        id: record.item_id,
        error: record.failure?.error ?? "unknown",
        reason: record.failure?.reason ?? "",
      });
      continue;
    }
    const outcome = await options.outcomes.get(record.item_policy, record.item_id);
    if (outcome === undefined) {
      input.missing_live.push(record.item_id);
      continue;
    }
    const { decision, labels } = asDecided(outcome);
    input.live.set(record.item_id, decision);
    input.shadow.set(record.item_id, shadowDecision(record.result));
    if (Object.keys(labels).length > 0) input.labels.set(record.item_id, labels);
  }
  return input;
}
