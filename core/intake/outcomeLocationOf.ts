import type { OutcomeLocation } from "../../contract/intake/index.js";

/**
 * Where an item's outcome will be: its key (policy, id), the review console API's path of the
 * item, and the operator's command that prints it (the id quoted for a POSIX shell when needed).
 *
 * @example outcomeLocationOf("ticket-routing", "T-1").show // "decisions outcomes show T-1 --policy ticket-routing"
 */
export function outcomeLocationOf(policy: string, id: string): OutcomeLocation {
  return {
    policy,
    id,
    review_api_path: `/api/items/${encodeURIComponent(policy)}/${encodeURIComponent(id)}`,
    show: `decisions outcomes show ${shellWord(id)} --policy ${shellWord(policy)}`,
  };
}

function shellWord(text: string): string {
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
