import type { OutcomesReader, StoredOutcome } from "../../core/outcomes/index.js";
import type { RedecideSent } from "./redecideOutcomes.js";

/** How often {@link waitForRedecides} reads the items still waited for. */
const POLL_MS = 500;

/**
 * Reads the sent items until each has a newer outcome than the one its redecide read, or
 * `seconds` pass; tells `onDecided` of each as it comes.
 * @returns the new outcomes by item id, and the `policy/id` keys of those still not decided again.
 */
export async function waitForRedecides(
  table: Pick<OutcomesReader, "get">,
  sent: readonly RedecideSent[],
  seconds: number,
  onDecided: (key: string, outcome: StoredOutcome) => void = () => undefined,
): Promise<{ redecided: Map<string, StoredOutcome>; notRedecided: string[] }> {
  const redecided = new Map<string, StoredOutcome>();
  const waiting = new Map<string, RedecideSent & { ok: true }>();
  for (const entry of sent) if (entry.ok) waiting.set(`${entry.policy}/${entry.id}`, entry);
  const until = Date.now() + seconds * 1000;
  while (waiting.size > 0 && Date.now() < until) {
    for (const [key, entry] of waiting) {
      const outcome = await table.get(entry.policy, entry.id);
      if (outcome !== undefined && outcome.updated_at !== entry.updatedAt) {
        onDecided(key, outcome);
        redecided.set(entry.id, outcome);
        waiting.delete(key);
      }
    }
    if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { redecided, notRedecided: [...waiting.keys()] };
}
