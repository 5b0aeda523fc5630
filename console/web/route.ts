/** The console's routes: what the address after `#` names (`#/item/{policy}/{id}`, `#/stats/{policy}`, the queue). */

/** A route: the queue, an item, a policy's pictures, or a link that is not valid percent-encoding. */
export type Route =
  | { page: "queue" }
  | { page: "item"; policy: string; id: string }
  | { page: "stats"; policy: string }
  | { page: "invalid"; link: string };

/** The route of a location's hash. */
export function parseRoute(hash: string): Route {
  let parts: string[];
  try {
    parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  } catch (error) {
    // A link cut short or mistyped (`%E0%A4%A`) is not percent-encoding: say so, not a blank page.
    if (error instanceof URIError) return { page: "invalid", link: hash };
    throw error;
  }
  if (parts[0] === "item" && parts[1] && parts[2] !== undefined)
    return { page: "item", policy: parts[1], id: parts.slice(2).join("/") };
  if (parts[0] === "stats" && parts[1]) return { page: "stats", policy: parts[1] };
  return { page: "queue" };
}

/** The link to an item's page. */
export function itemHref(policy: string, id: string): string {
  return `#/item/${encodeURIComponent(policy)}/${encodeURIComponent(id)}`;
}
