/**
 * The front door's HTTP routes: one table read by the router that serves them
 * (`core/intake/routeIntakeRequest.ts`), by the CDK app that declares them on API Gateway
 * (`infra/constructs/FrontDoor.ts`) and by the local server of `decisions up`.
 *
 * - `workItems` (`POST /v1/work-items`): callers that sign with AWS SigV4; API Gateway checks the
 *   signature and IAM allows `execute-api:Invoke` (AWS_IAM authorization). Not served locally.
 * - `webhookWorkItems` (`POST /v1/webhooks/work-items`): webhook senders that sign the Standard
 *   Webhooks way with the shared secret (`whsec_…`); the function verifies it. What `decisions up`
 *   prints as `submit_url`.
 * - `workItemSchema` (`GET /v1/schemas/work-item.json`): the work item's JSON Schema, for anyone.
 */
export const INTAKE_ROUTES = [
  { name: "workItems", method: "POST", path: "/v1/work-items", auth: "iam" },
  { name: "webhookWorkItems", method: "POST", path: "/v1/webhooks/work-items", auth: "webhook" },
  { name: "workItemSchema", method: "GET", path: "/v1/schemas/work-item.json", auth: "none" },
] as const satisfies readonly {
  name: string;
  method: "GET" | "POST";
  path: string;
  auth: "iam" | "webhook" | "none";
}[];

/** One route of {@link INTAKE_ROUTES}. */
export type IntakeRoute = (typeof INTAKE_ROUTES)[number];

/** How a route's callers prove who they are. */
export type IntakeAuth = IntakeRoute["auth"];

/** The route of a method and a path, or undefined when no route of {@link INTAKE_ROUTES} has them. */
export function matchIntakeRoute(method: string, path: string): IntakeRoute | undefined {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return INTAKE_ROUTES.find((route) => route.method === method && route.path === trimmed);
}

/** The path of a named route. */
export function intakePathOf(name: IntakeRoute["name"]): string {
  const route = INTAKE_ROUTES.find((candidate) => candidate.name === name);
  if (route === undefined) throw new Error(`no front door route is named ${name}`);
  return route.path;
}
