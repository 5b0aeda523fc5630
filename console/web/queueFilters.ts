/** The queue's filters and order, and the API path that lists a page of the queue under them. */

/** The queue's filters as the form holds them (empty: no filter). */
export interface Filters {
  policy: string;
  question: string;
  rule: string;
  maxAgeHours: string;
  /** The queue's order: newest (the server's default), margin or entropy. */
  order: string;
}

/** The queue unfiltered, newest first. */
export const NO_FILTERS: Filters = { policy: "", question: "", rule: "", maxAgeHours: "", order: "newest" };

/** The orders the queue offers, with what each puts first. */
export const ORDERS: readonly { value: string; label: string }[] = [
  { value: "newest", label: "newest first" },
  { value: "margin", label: "closest to the threshold first" },
  { value: "entropy", label: "least sure (entropy) first" },
];

/** `GET /api/queue` for a page (25 items) under the filters, continuing at `before`. */
export function queuePath(filters: Filters, before?: string): string {
  const query = new URLSearchParams();
  if (filters.policy) query.set("policy", filters.policy);
  if (filters.question) query.set("question", filters.question);
  if (filters.rule) query.set("rule", filters.rule);
  if (filters.maxAgeHours) query.set("max_age_hours", filters.maxAgeHours);
  if (filters.order && filters.order !== "newest") query.set("order", filters.order);
  if (before) query.set("before", before);
  query.set("limit", "25");
  return `/api/queue?${query}`;
}
