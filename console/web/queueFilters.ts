/**
 * The queue's filters and order: as the form holds them, as the page's address keeps them
 * (`#/?policy=…&question=…&order=…`, so a reload or a link keeps the view), and the API path that
 * lists a page of the queue under them.
 */

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

/** Each filter's name in an address and in the API's query. */
const QUERY_NAMES: readonly [keyof Filters, string][] = [
  ["policy", "policy"],
  ["question", "question"],
  ["rule", "rule"],
  ["maxAgeHours", "max_age_hours"],
  ["order", "order"],
];

/** The filters as a query (`policy=…&order=margin`): only those set, the default order left out. */
export function filtersQuery(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [field, name] of QUERY_NAMES) {
    const value = filters[field].trim();
    if (value === "" || (field === "order" && value === "newest")) continue;
    query.set(name, value);
  }
  return query;
}

/** The filters a query names; what it leaves out is unfiltered (the order: newest). */
export function filtersOf(query: URLSearchParams): Filters {
  const filters = { ...NO_FILTERS };
  for (const [field, name] of QUERY_NAMES) {
    const value = query.get(name);
    if (value !== null && value !== "") filters[field] = value;
  }
  return filters;
}

/** The `?…` to add to a page's address to keep the filters ("" with none). */
export function filtersSuffix(filters: Filters): string {
  const query = filtersQuery(filters).toString();
  return query === "" ? "" : `?${query}`;
}

/** The address of the queue under the filters (`#/`, or `#/?policy=…`). */
export function queueHref(filters: Filters): string {
  return `#/${filtersSuffix(filters)}`;
}

/** Some filter other than the order is set. */
export function filtered(filters: Filters): boolean {
  return filters.question !== "" || filters.rule !== "" || filters.maxAgeHours !== "";
}

/** `GET /api/queue` for a page (25 items) under the filters, continuing at `before`. */
export function queuePath(filters: Filters, before?: string): string {
  const query = filtersQuery(filters);
  if (before) query.set("before", before);
  query.set("limit", "25");
  return `/api/queue?${query}`;
}
