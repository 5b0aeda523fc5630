import {
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  MAX_POLICY_NAME_BYTES,
} from "../../contract/workItem/WorkItemSchema.js";
import { readSupersedeMarker, SUPERSEDE_ANY } from "../../core/outcomes/index.js";
import type { DeadLetter } from "./listDeadLetters.js";

/** Where outcomes are read from (an `OutcomesReader`). */
export interface OutcomeLookup {
  readonly tableName: string;
  get(policy: string, id: string): Promise<{ status: string; updated_at: string } | undefined>;
}

/** What {@link attachDecidedOutcomes} did. */
export interface AttachedOutcomes {
  letters: DeadLetter[];
  /** Why the outcomes could not be read (the table missing, no access), when they could not. */
  unreadable?: string;
}

/**
 * Whether a dead letter is a copy of an item that has already ended, so that moving it back would
 * decide nothing: its body names a policy and an id, that item's outcome is stored, and the
 * message does not ask to replace it — no supersede marker, or one naming another version than the
 * stored one (the supersede was applied, or would be refused). A letter whose outcome is absent, or
 * that carries `*` (replace whatever is stored), is never a duplicate. Reads one outcome.
 * @returns the stored outcome's status and time when it is a duplicate, else undefined.
 * @throws what the lookup throws.
 */
export async function decidedOutcomeOf(
  letter: DeadLetter,
  lookup: OutcomeLookup,
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
  return { status: outcome.status, updatedAt: outcome.updated_at };
}

/**
 * Gives each dead letter that is a copy of an already-ended item (see {@link decidedOutcomeOf})
 * its stored outcome's status and time as `decided`. Reads one message at a time; the first read
 * that fails stops the lookups (the listing stands without them) and is told in `unreadable`.
 */
export async function attachDecidedOutcomes(
  letters: readonly DeadLetter[],
  lookup: OutcomeLookup,
): Promise<AttachedOutcomes> {
  const out: DeadLetter[] = [];
  let unreadable: string | undefined;
  for (const letter of letters) {
    if (unreadable !== undefined) {
      out.push(letter);
      continue;
    }
    try {
      const decided = await decidedOutcomeOf(letter, lookup);
      out.push(decided === undefined ? letter : { ...letter, decided });
    } catch (error) {
      unreadable = `the outcomes in ${lookup.tableName} could not be read (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`;
      out.push(letter);
    }
  }
  return unreadable === undefined ? { letters: out } : { letters: out, unreadable };
}
