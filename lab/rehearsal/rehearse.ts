import {
  ADAPTER_DEADLINE_MARGIN_SECONDS,
  MAX_ADAPTER_DEADLINE_SECONDS,
  REVIEW_ROUTES,
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS,
} from "../../contract/index.js";
import { authorizeCall, type PolicyDocument } from "./authorizeCalls.js";
import { type ConsolePageCall, consolePageCalls } from "./consolePageCalls.js";
import { DEPLOYED_FUNCTIONS, type FunctionView } from "./deployedFunctions.js";
import { type CfnTemplate, type DeployTarget, TemplateResolver } from "./TemplateResolver.js";

/** A call the role does not allow. */
export interface DeniedCall {
  function: string;
  action: string;
  resource: string;
  /** The role's statement that names the action but not this resource (or whose condition fails). */
  near_miss?: Record<string, unknown>;
  /** The evaluator's own complaint about the request, when it refused to evaluate it. */
  errors?: string[];
}

/** A route the code serves or the page calls that API Gateway would answer 404. */
export interface MissingRoute {
  method: string;
  path: string;
  /** Who calls it: the page's file, or `router` for a route only the router serves. */
  caller: string;
}

/** One broken link of the chain of timeouts. */
export interface TimeoutFinding {
  check: "adapter-deadline" | "function-timeout" | "visibility-timeout";
  /** The template's logical id of the resource at fault. */
  resource: string;
  detail: string;
}

/** What `decisions rehearse --json` prints. */
export interface RehearsalReport {
  /** Calls checked, per function and action. */
  calls: Record<string, Record<string, number>>;
  exercised: { functions: string[]; routes: string[] };
  denied: DeniedCall[];
  missing_routes: MissingRoute[];
  timeouts: TimeoutFinding[];
}

/** The number of findings of a report: 0 is a rehearsal passed. */
export function findingsOf(report: RehearsalReport): number {
  return report.denied.length + report.missing_routes.length + report.timeouts.length;
}

/** Options of {@link rehearse}. */
export interface RehearseOptions {
  template: CfnTemplate;
  target: DeployTarget;
  /** The console page's calls. Default: read from `console/web` ({@link consolePageCalls}). */
  pageCalls?: readonly ConsolePageCall[];
}

/**
 * Rehearses a deploy on a synthesized template: every AWS call each deployed function's code makes
 * (its {@link DEPLOYED_FUNCTIONS} list, derived from the template's own values) is authorized
 * against the function's role as the template states it; the console's HTTP API routes are
 * compared with the route table the code serves and the calls the page makes; the chain of timeouts
 * (SageMaker's 60 s, the adapter's deadline, the function's timeout, the queue's visibility) is checked.
 */
export async function rehearse(options: RehearseOptions): Promise<RehearsalReport> {
  const resolver = new TemplateResolver(options.template, options.target);
  const report: RehearsalReport = {
    calls: {},
    exercised: { functions: [], routes: [] },
    denied: [],
    missing_routes: [],
    timeouts: [],
  };
  await checkCalls(resolver, report);
  checkRoutes(resolver, options.pageCalls ?? consolePageCalls(), report);
  checkTimeouts(resolver, report);
  return report;
}

async function checkCalls(resolver: TemplateResolver, report: RehearsalReport): Promise<void> {
  const functionIds = resolver.logicalIdsOf("AWS::Lambda::Function");
  for (const deployed of DEPLOYED_FUNCTIONS) {
    const logicalId = functionIds.find((id) => id.startsWith(deployed.logicalIdPrefix));
    if (logicalId === undefined) continue;
    const view = functionView(resolver, logicalId);
    const roleId = roleOf(resolver, logicalId);
    const policies = policiesOf(resolver, roleId);
    const counts: Record<string, number> = {};
    for (const call of deployed.calls(view)) {
      counts[call.action] = (counts[call.action] ?? 0) + 1;
      const decision = await authorizeCall(call, policies, resolver.target, resolver.physicalName(roleId));
      if (decision.allowed) continue;
      report.denied.push({
        function: deployed.name,
        action: call.action,
        resource: call.resource,
        ...(decision.nearMiss === undefined ? {} : { near_miss: decision.nearMiss }),
        ...(decision.errors === undefined ? {} : { errors: decision.errors }),
      });
    }
    report.calls[deployed.name] = counts;
    report.exercised.functions.push(deployed.name);
  }
}

function functionView(resolver: TemplateResolver, logicalId: string): FunctionView {
  const properties = resolver.resource(logicalId).Properties ?? {};
  const variables =
    (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
  const environment = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, resolver.resolveString(value)]),
  );
  const eventSources = resolver
    .logicalIdsOf("AWS::Lambda::EventSourceMapping")
    .filter((id) => {
      const target = resolver.resource(id).Properties?.FunctionName as { Ref?: string } | undefined;
      return target?.Ref === logicalId;
    })
    .map((id) => ({
      sourceArn: resolver.resolveString(resolver.resource(id).Properties?.EventSourceArn),
      mappingArn: resolver.arnOf(id),
    }));
  return { logicalId, environment, eventSources, resolver };
}

function roleOf(resolver: TemplateResolver, functionId: string): string {
  const role = resolver.resource(functionId).Properties?.Role as
    | { "Fn::GetAtt"?: [string, string] }
    | undefined;
  const roleId = role?.["Fn::GetAtt"]?.[0];
  if (roleId === undefined) throw new Error(`${functionId}'s role is not a role of the template`);
  return roleId;
}

/** The role's inline policies and every AWS::IAM::Policy attached to it, resolved. */
function policiesOf(
  resolver: TemplateResolver,
  roleId: string,
): { name: string; document: PolicyDocument }[] {
  const inline = ((resolver.resource(roleId).Properties?.Policies as unknown[]) ?? []).map(
    (policy, index) => {
      const { PolicyName, PolicyDocument: document } = policy as {
        PolicyName?: unknown;
        PolicyDocument: unknown;
      };
      return {
        name: String(PolicyName ?? `${roleId}-inline-${index}`),
        document: resolver.resolve(document) as PolicyDocument,
      };
    },
  );
  const attached = resolver
    .logicalIdsOf("AWS::IAM::Policy")
    .filter((id) => {
      const roles = (resolver.resource(id).Properties?.Roles as { Ref?: string }[]) ?? [];
      return roles.some((role) => role.Ref === roleId);
    })
    .map((id) => ({
      name: id,
      document: resolver.resolve(resolver.resource(id).Properties?.PolicyDocument) as PolicyDocument,
    }));
  return [...inline, ...attached];
}

const patternOf = (path: string) =>
  `/${path
    .split("/")
    .filter((part) => part.length > 0)
    .map((part) => (part.startsWith("{") ? "{}" : part))
    .join("/")}`;

function checkRoutes(
  resolver: TemplateResolver,
  pageCalls: readonly ConsolePageCall[],
  report: RehearsalReport,
): void {
  const declared = new Set(
    resolver.logicalIdsOf("AWS::ApiGatewayV2::Route").map((id) => {
      const [method = "", path = ""] = String(resolver.resource(id).Properties?.RouteKey).split(" ");
      return `${method} ${patternOf(path)}`;
    }),
  );
  const seen = new Set<string>();
  const wanted: MissingRoute[] = [
    ...pageCalls.map((call) => ({
      method: call.method,
      path: `/${call.segments.join("/")}`,
      caller: call.caller,
    })),
    ...REVIEW_ROUTES.map((route) => ({ method: route.method, path: route.path, caller: "router" })),
  ];
  for (const route of wanted) {
    const key = `${route.method} ${patternOf(route.path)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (declared.has(key)) report.exercised.routes.push(`${route.method} ${route.path}`);
    else report.missing_routes.push(route);
  }
}

function checkTimeouts(resolver: TemplateResolver, report: RehearsalReport): void {
  for (const id of resolver.logicalIdsOf("AWS::SageMaker::Model")) {
    const container = resolver.resource(id).Properties?.PrimaryContainer as
      | { Environment?: Record<string, unknown> }
      | undefined;
    const deadline = container?.Environment?.SEMIF_REQUEST_TIMEOUT_MS;
    if (deadline === undefined) continue;
    const ms = Number(resolver.resolveString(deadline));
    if (ms > MAX_ADAPTER_DEADLINE_SECONDS * 1000)
      report.timeouts.push({
        check: "adapter-deadline",
        resource: id,
        detail: `SEMIF_REQUEST_TIMEOUT_MS ${ms} leaves less than ${ADAPTER_DEADLINE_MARGIN_SECONDS} s below SageMaker's own ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s: a call that waits its whole deadline gets SageMaker's timeout instead of the adapter's answer (at most ${MAX_ADAPTER_DEADLINE_SECONDS * 1000})`,
      });
  }
  for (const id of resolver.logicalIdsOf("AWS::Lambda::EventSourceMapping")) {
    const mapping = resolver.resource(id).Properties ?? {};
    const source = mapping.EventSourceArn as { "Fn::GetAtt"?: [string, string] } | undefined;
    const queueId = source?.["Fn::GetAtt"]?.[0];
    if (queueId === undefined || resolver.resource(queueId).Type !== "AWS::SQS::Queue") continue;
    const functionId = (mapping.FunctionName as { Ref?: string } | undefined)?.Ref;
    if (functionId === undefined) continue;
    const timeout = Number(resolver.resource(functionId).Properties?.Timeout ?? 3);
    const window = Number(mapping.MaximumBatchingWindowInSeconds ?? 0);
    const visibility = Number(resolver.resource(queueId).Properties?.VisibilityTimeout ?? 30);
    if (visibility < 6 * timeout + window)
      report.timeouts.push({
        check: "visibility-timeout",
        resource: queueId,
        detail: `VisibilityTimeout ${visibility} s is below 6 × the function's timeout ${timeout} s + the batching window ${window} s (${6 * timeout + window} s): records become visible again while a retry still holds them`,
      });
    if (isEndpointCaller(resolver, functionId) && timeout <= SAGEMAKER_INVOCATION_TIMEOUT_SECONDS)
      report.timeouts.push({
        check: "function-timeout",
        resource: functionId,
        detail: `the function's timeout ${timeout} s does not outlast one InvokeEndpoint call (SageMaker's ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s)`,
      });
  }
}

function isEndpointCaller(resolver: TemplateResolver, functionId: string): boolean {
  const variables = (
    resolver.resource(functionId).Properties?.Environment as { Variables?: object } | undefined
  )?.Variables;
  return variables !== undefined && "ENDPOINT_NAME" in variables;
}
