import type { DeadLetter } from "./listDeadLetters.js";

/** Dead letters after a lookup, and why the lookups stopped when a read failed. */
export interface AttachedLetters {
  letters: DeadLetter[];
  /** Why the lookups stopped (the table missing, no access), when a read failed. */
  unreadable?: string;
}

/**
 * Gives each dead letter what `attach` looks up for it, one message at a time. The first read
 * that fails stops the lookups: the letters from there on are listed as they are, and the failure
 * is told in `unreadable` (`source` names what could not be read), so a listing always stands.
 */
export async function attachToLetters(
  letters: readonly DeadLetter[],
  source: string,
  attach: (letter: DeadLetter) => Promise<DeadLetter>,
): Promise<AttachedLetters> {
  const out: DeadLetter[] = [];
  let unreadable: string | undefined;
  for (const letter of letters) {
    if (unreadable !== undefined) {
      out.push(letter);
      continue;
    }
    try {
      out.push(await attach(letter));
    } catch (error) {
      unreadable = `${source} could not be read (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`;
      out.push(letter);
    }
  }
  return unreadable === undefined ? { letters: out } : { letters: out, unreadable };
}
