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
    review_api_path: `/api/items/${encodeURIComponent(policy)}/${idSegmentOf(id)}`,
    show: `decisions outcomes show ${shellWord(id)} --policy ${shellWord(policy)}`,
  };
}

/**
 * The id as the review API's path segment: percent-encoded, except `.` and `..`, which URL parsers
 * remove as dot segments: those go as the base64url of their UTF-8 with `?id_encoding=base64url`.
 */
function idSegmentOf(id: string): string {
  if (id === "." || id === "..")
    return `${Buffer.from(id, "utf8").toString("base64url")}?id_encoding=base64url`;
  return encodeURIComponent(id);
}

function shellWord(text: string): string {
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
