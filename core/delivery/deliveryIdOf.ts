/**
 * The `webhook-id` of one status change of one outcome:
 * `<policy>:<id, percent-encoded>:<status>:<changed_at>`. Every attempt and every redrive of that
 * change carries the same id, and another change of the same outcome (a review after the decision)
 * another one, so a receiver drops repeats by it and never drops a new status. The id is
 * percent-encoded (`encodeURIComponent`) so the header stays ASCII.
 *
 * @example deliveryIdOf({ policy: "ticket-routing", id: "T 1", status: "reviewed", changedAt: "2026-12-07T10:00:00.000Z" })
 * // "ticket-routing:T%201:reviewed:2026-12-07T10:00:00.000Z"
 */
export function deliveryIdOf(change: {
  policy: string;
  id: string;
  status: string;
  changedAt: string;
}): string {
  return `${change.policy}:${encodeURIComponent(change.id)}:${change.status}:${change.changedAt}`;
}
