import type { RoutePlan } from "../stack/LocalStackPlan.js";

/** API Gateway's answer to a request no route of an HTTP API matches: 404 with this body. */
export const API_GATEWAY_NOT_FOUND = { message: "Not Found" } as const;

/**
 * The route of the template's HTTP API (`RoutePlan`, its `RouteKey`) a request matches, as API
 * Gateway selects it: `$default` matches any request; otherwise the method (or `ANY`) and the path
 * segment by segment, `{name}` one non-empty segment, a last `{name+}` one or more. Undefined when
 * none matches: API Gateway then answers 404 {@link API_GATEWAY_NOT_FOUND} and the function is
 * never invoked. Segments are compared decoded, as the console's router reads them.
 */
export function matchTemplateRoute(
  routes: readonly RoutePlan[],
  method: string,
  path: string,
): RoutePlan | undefined {
  const segments = segmentsOf(path);
  return routes.find((route) => {
    if (route.routeKey === "$default") return true;
    const [routeMethod = "", routePath = ""] = route.routeKey.split(" ", 2);
    if (routeMethod !== "ANY" && routeMethod !== method) return false;
    const pattern = segmentsOf(routePath);
    const greedy = pattern.at(-1)?.endsWith("+}") === true;
    if (greedy ? segments.length < pattern.length : segments.length !== pattern.length) return false;
    return pattern.every((part, index) => {
      if (part.startsWith("{") && part.endsWith("}")) return (segments[index] ?? "").length > 0;
      return part === segments[index];
    });
  });
}

function segmentsOf(path: string): string[] {
  return (path.split("?")[0] ?? "")
    .split("/")
    .filter((part) => part.length > 0)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch (error) {
        // Not percent-encoding: compared as written (the router answers it 400).
        if (error instanceof URIError) return part;
        throw error;
      }
    });
}
