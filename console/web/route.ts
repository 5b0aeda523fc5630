/**
 * The console's routes: what the address after `#` names — the queue (`#/`, its filters and order
 * as a query: `#/?policy=…&order=margin`), an item (`#/item/{policy}/{id}`, with the queue's query
 * it came from, so the next item follows the same view), a policy's pictures (`#/stats/{policy}`).
 */
import { type Filters, filtersOf, filtersSuffix } from "./queueFilters.js";

/** A route: the queue, an item, a policy's pictures, or a link that is not valid percent-encoding. */
export type Route =
  | { page: "queue"; filters: Filters }
  | { page: "item"; policy: string; id: string; filters: Filters }
  | { page: "stats"; policy: string }
  | { page: "invalid"; link: string };

/** The route of a location's hash. */
export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#\/?/, "");
  // The path's segments are percent-encoded, so a `?` in it starts the query.
  const mark = body.indexOf("?");
  const path = mark < 0 ? body : body.slice(0, mark);
  let parts: string[];
  let filters: Filters;
  try {
    parts = path.split("/").map(decodeURIComponent);
    filters = filtersOf(new URLSearchParams(mark < 0 ? "" : body.slice(mark + 1)));
  } catch (error) {
    // A link cut short or mistyped (`%E0%A4%A`) is not percent-encoding: say so, not a blank page.
    if (error instanceof URIError) return { page: "invalid", link: hash };
    throw error;
  }
  if (parts[0] === "item" && parts[1] && parts[2] !== undefined)
    return { page: "item", policy: parts[1], id: parts.slice(2).join("/"), filters };
  if (parts[0] === "stats" && parts[1]) return { page: "stats", policy: parts[1] };
  return { page: "queue", filters };
}

/** The link to an item's page, keeping the queue's filters it was opened under. */
export function itemHref(policy: string, id: string, filters?: Filters): string {
  return `#/item/${encodeURIComponent(policy)}/${encodeURIComponent(id)}${filters === undefined ? "" : filtersSuffix(filters)}`;
}
