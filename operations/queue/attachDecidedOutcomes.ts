import {
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  MAX_POLICY_NAME_BYTES,
} from "../../contract/workItem/WorkItemSchema.js";
import { readSupersedeMarker, SUPERSEDE_ANY } from "../../core/outcomes/index.js";
import { type AttachedLetters, attachToLetters } from "./attachToLetters.js";
import type { DeadLetter } from "./listDeadLetters.js";

/** Where outcomes are read from (an `OutcomesReader`). */
export interface OutcomeLookup {
  readonly tableName: string;
  get(policy: string, id: string): Promise<{ status: string; updated_at: string } | undefined>;
}

/**
 * Where a job line's job is read from: whether its end check is outstanding (every line ended,
 * `ended_at` unset: `endCheckOutstanding` of the job as `JobsReader.find` reads it).
 */
export interface JobEndLookup {
  readonly tableName: string;
  endCheckOutstanding(jobId: string): Promise<boolean>;
}

/** What {@link attachDecidedOutcomes} did. */
export type AttachedOutcomes = AttachedLetters;

/**
 * Whether a dead letter is a copy of an item that has already ended, so that moving it back would
 * decide nothing: its body names a policy and an id, that item's outcome is stored, and the
 * message does not ask to replace it — no supersede marker, or one naming another version than the
 * stored one (the supersede was applied, or would be refused). A letter whose outcome is absent, or
 * that carries `*` (replace whatever is stored), is never a duplicate. Reads one outcome.
 *
 * A duplicate that is a job's line is `held` (not safe to purge) while its job's end check is
 * outstanding — its redelivery is then what would run that check — or when `jobs` is not given
 * (its job cannot be read). Reads the job then.
 * @returns the stored outcome's status and time when it is a duplicate, else undefined.
 * @throws what the lookups throw.
 */
export async function decidedOutcomeOf(
  letter: DeadLetter,
  lookup: OutcomeLookup,
  jobs?: JobEndLookup,
): Promise<DeadLetter["decided"]> {
  const { body } = letter;
  if (body.kind !== "item") return undefined;
  // An id or policy DynamoDB cannot store has no outcome (the decide function rejects it unstored).
  if (!isStorableKey(body.policy, MAX_POLICY_NAME_BYTES) || !isStorableKey(body.id, MAX_ITEM_ID_BYTES))
    return undefined;
  const outcome = await lookup.get(body.policy, body.id);
  if (outcome === undefined) return undefined;
  if (letter.supersede !== undefined) {
    const { version } = readSupersedeMarker(letter.supersede);
    if (version === SUPERSEDE_ANY || version === outcome.updated_at) return undefined;
  }
  const decided = { status: outcome.status, updatedAt: outcome.updated_at };
  const held = await heldForJobEnd(letter, jobs);
  return held === undefined ? decided : { ...decided, held };
}

/** Why a job line's letter must stay in the queue for its job's end, if it must. */
async function heldForJobEnd(
  letter: DeadLetter,
  jobs: JobEndLookup | undefined,
): Promise<string | undefined> {
  if (letter.job === undefined) return undefined;
  const { jobId, line } = letter.job;
  if (jobs === undefined)
    return `line ${line} of job ${jobId}, whose job was not read (give the jobs table: --jobs-table)`;
  if (!(await jobs.endCheckOutstanding(jobId))) return undefined;
  return `line ${line} of job ${jobId}, whose lines have all ended but whose end check has not run: the jobs monitor runs it at its next check (on AWS, every 5 minutes), or redrive this message (its redelivery runs it)`;
}

/**
 * Gives each dead letter that is a copy of an already-ended item (see {@link decidedOutcomeOf})
 * its stored outcome's status and time as `decided` (`held` when it is not safe to purge yet). Reads one message at a time
 * (`attachToLetters`: the first read that fails stops the lookups and is told in `unreadable`).
 */
export async function attachDecidedOutcomes(
  letters: readonly DeadLetter[],
  lookup: OutcomeLookup,
  jobs?: JobEndLookup,
): Promise<AttachedOutcomes> {
  return attachToLetters(letters, `the outcomes in ${lookup.tableName}`, async (letter) => {
    const decided = await decidedOutcomeOf(letter, lookup, jobs);
    return decided === undefined ? letter : { ...letter, decided };
  });
}
