/**
 * The review console's HTTP API routes: one table read by the router that serves them
 * (`core/review/routeReviewRequest.ts`), by the CDK app that declares them on API Gateway
 * (`infra/constructs/ReviewConsoleApi.ts`: a route missing there is API Gateway's 404 and never
 * reaches the function), and by the rehearsal that compares the two with what the page calls.
 * A path parameter is `{name}` and stands for one non-empty path segment, as in API Gateway's route keys.
 */
export const REVIEW_ROUTES = [
  { name: "me", method: "GET", path: "/api/me" },
  { name: "policies", method: "GET", path: "/api/policies" },
  { name: "stats", method: "GET", path: "/api/policies/{policy}/stats" },
  { name: "drift", method: "GET", path: "/api/policies/{policy}/drift" },
  { name: "shadow", method: "GET", path: "/api/policies/{policy}/shadow" },
  { name: "queue", method: "GET", path: "/api/queue" },
  { name: "queueCount", method: "GET", path: "/api/queue/count" },
  { name: "item", method: "GET", path: "/api/items/{policy}/{id}" },
  { name: "review", method: "POST", path: "/api/items/{policy}/{id}/review" },
] as const satisfies readonly { name: string; method: "GET" | "POST"; path: string }[];

/** One route of {@link REVIEW_ROUTES}. */
export type ReviewRoute = (typeof REVIEW_ROUTES)[number];

/** The name of a route of {@link REVIEW_ROUTES}. */
export type ReviewRouteName = ReviewRoute["name"];

/** A request matched to its route, with the path parameters by name (decoded as given). */
export interface ReviewRouteMatch {
  route: ReviewRoute;
  params: Readonly<Record<string, string>>;
}

/**
 * The route of a method and a path's segments (already split and decoded), or undefined when no
 * route of {@link REVIEW_ROUTES} has them.
 *
 * @example matchReviewRoute("GET", ["api", "policies", "ticket-routing", "drift"])?.route.name // "drift"
 */
export function matchReviewRoute(method: string, segments: readonly string[]): ReviewRouteMatch | undefined {
  for (const route of REVIEW_ROUTES) {
    if (route.method !== method) continue;
    const pattern = route.path.split("/").filter((part) => part.length > 0);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index] ?? "";
      if (part.startsWith("{") && part.endsWith("}")) {
        params[part.slice(1, -1)] = segment;
        return segment.length > 0;
      }
      return part === segment;
    });
    if (matches) return { route, params };
  }
  return undefined;
}
