import {
  ADAPTER_DEADLINE_MARGIN_SECONDS,
  MAX_ADAPTER_DEADLINE_SECONDS,
  REVIEW_ROUTES,
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS,
} from "../../contract/index.js";
import { type IamCallsSnapshot, resourceKindOf } from "../../local/iam/LocalIam.js";
import { type CfnTemplate, type DeployTarget, TemplateResolver } from "../../local/iam/TemplateResolver.js";
import { type TemplateFunctionName, templateFunctionOf } from "../../local/iam/templateFunctions.js";
import { authorizeCall } from "./authorizeCalls.js";
import { type ConsolePageCall, consolePageCalls } from "./consolePageCalls.js";
import { DEPLOYED_FUNCTIONS, type FunctionView } from "./deployedFunctions.js";
import type { CalledRoute } from "./liveWorkload.js";
import { policiesOf } from "./rolePolicies.js";

/** A call the role does not allow. */
export interface DeniedCall {
  function: string;
  action: string;
  resource: string;
  /** The role's statement that names the action but not this resource (or whose condition fails). */
  near_miss?: Record<string, unknown>;
  /** The evaluator's own complaint about the request, when it refused to evaluate it. */
  errors?: string[];
  /**
   * `observed`: a running function's call was refused (AccessDeniedException); `declared`: a call of
   * the function's declared list ({@link DEPLOYED_FUNCTIONS}) would be.
   */
  source: "observed" | "declared";
  /** How many times the running functions made it (observed only). */
  count?: number;
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

/** Calls per function and action. */
export type CallCounts = Record<string, Record<string, number>>;

/** What `decisions rehearse --json` prints. */
export interface RehearsalReport {
  /**
   * `live`: the stack ran from the template with IAM enforced and a workload went through it; the
   * calls it made are `observed`, the rest `declared`. `static`: every call is `declared`.
   */
  mode: "live" | "static";
  /** Every call checked, per function and action: the observed ones and the declared ones. */
  calls: CallCounts;
  /** The calls the running functions made, authorized one by one (live only; allowed and refused). */
  observed: CallCounts;
  /**
   * The calls of each function's declared list checked against its role without running: all of
   * them (static), or those the workload did not make (live: the functions and calls the local
   * stack cannot run, e.g. the capacity controller's DescribeEndpoint, the event sources' stream reads).
   */
  declared: CallCounts;
  /**
   * `functions`: those whose calls were checked (live: those that ran); `routes`: the console's
   * routes the template declares that the page or the router needs (live: those the workload called
   * and that answered).
   */
  exercised: { functions: string[]; routes: string[] };
  denied: DeniedCall[];
  missing_routes: MissingRoute[];
  timeouts: TimeoutFinding[];
  /** Live only: what the workload could not do (an item not decided, a route answering 5xx). */
  workload: string[];
}

/** The number of findings of a report: 0 is a rehearsal passed. */
export function findingsOf(report: RehearsalReport): number {
  return (
    report.denied.length + report.missing_routes.length + report.timeouts.length + report.workload.length
  );
}

/** What the live rehearsal saw the running stack do (`rehearseLive`). */
export interface LiveObservation {
  /** The running functions' calls as the stack's IAM ledger counted them. */
  calls: IamCallsSnapshot;
  /** The console routes the workload called and what each answered. */
  routes: readonly CalledRoute[];
  /** What the workload could not do. */
  problems: readonly string[];
}

/** Options of {@link rehearse}. */
export interface RehearseOptions {
  template: CfnTemplate;
  target: DeployTarget;
  /** The console page's calls. Default: read from `console/web` ({@link consolePageCalls}). */
  pageCalls?: readonly ConsolePageCall[];
  /** What the live rehearsal observed. Absent: static (every call declared). */
  observed?: LiveObservation;
}

/**
 * Rehearses a deploy on a synthesized template: the AWS calls of each deployed function are
 * authorized against the function's role as the template states it — those the running stack made
 * (`observed`, from `rehearseLive`), and for the rest each function's declared list
 * ({@link DEPLOYED_FUNCTIONS}, derived from the template's own values); the console's HTTP API
 * routes are compared with the route table the code serves and the calls the page makes; the chain
 * of timeouts (SageMaker's 60 s, the adapter's deadline, the function's timeout, the queue's
 * visibility) is checked.
 */
export async function rehearse(options: RehearseOptions): Promise<RehearsalReport> {
  const resolver = new TemplateResolver(options.template, options.target);
  const report: RehearsalReport = {
    mode: options.observed === undefined ? "static" : "live",
    calls: {},
    observed: {},
    declared: {},
    exercised: { functions: [], routes: [] },
    denied: [],
    missing_routes: [],
    timeouts: [],
    workload: [...(options.observed?.problems ?? [])],
  };
  await checkCalls(resolver, report, options.observed);
  checkRoutes(resolver, options.pageCalls ?? consolePageCalls(), report, options.observed);
  checkTimeouts(resolver, report);
  return report;
}

const count = (counts: CallCounts, name: string, action: string, by = 1): void => {
  const actions = counts[name] ?? {};
  actions[action] = (actions[action] ?? 0) + by;
  counts[name] = actions;
};

async function checkCalls(
  resolver: TemplateResolver,
  report: RehearsalReport,
  observed: LiveObservation | undefined,
): Promise<void> {
  for (const deployed of DEPLOYED_FUNCTIONS) {
    const fn = templateFunctionOf(resolver, deployed.name);
    if (fn === undefined) continue;
    const view = functionView(resolver, fn.logicalId);
    const policies = policiesOf(resolver, fn.roleLogicalId);
    const ran = observed === undefined ? undefined : observedOf(observed.calls, deployed.name);
    for (const call of deployed.calls(view)) {
      // A call the running function made (allowed or refused) is checked as it made it.
      if (ran?.made(call.action, call.resource) === true) continue;
      count(report.declared, deployed.name, call.action);
      count(report.calls, deployed.name, call.action);
      const decision = await authorizeCall(
        call,
        policies,
        resolver.target,
        resolver.physicalName(fn.roleLogicalId),
      );
      if (decision.allowed) continue;
      report.denied.push({
        function: deployed.name,
        action: call.action,
        resource: call.resource,
        ...(decision.nearMiss === undefined ? {} : { near_miss: decision.nearMiss }),
        ...(decision.errors === undefined ? {} : { errors: decision.errors }),
        source: "declared",
      });
    }
    if (observed === undefined) {
      report.exercised.functions.push(deployed.name);
      continue;
    }
    for (const [action, times] of Object.entries(ran?.allowed ?? {})) {
      count(report.observed, deployed.name, action, times);
      count(report.calls, deployed.name, action, times);
    }
    for (const denial of ran?.denied ?? []) {
      count(report.observed, deployed.name, denial.action, denial.count);
      count(report.calls, deployed.name, denial.action, denial.count);
      const { count: times, function: _, ...rest } = denial;
      report.denied.push({ function: deployed.name, ...rest, source: "observed", count: times });
    }
    if (ran !== undefined) report.exercised.functions.push(deployed.name);
  }
}

/** One function's part of the observed calls; undefined when it made none. */
function observedOf(calls: IamCallsSnapshot, name: TemplateFunctionName) {
  const allowed = calls.allowed[name];
  const denied = calls.denied.filter((denial) => denial.function === name);
  if (allowed === undefined && denied.length === 0) return undefined;
  const resources = calls.resources[name] ?? {};
  return {
    allowed: allowed ?? {},
    denied,
    /** Whether it made this call: the action on a resource of the same kind (an S3 object under the same prefix). */
    made: (action: string, resource: string): boolean => {
      const kind = resourceKindOf(resource);
      return (
        resources[action]?.includes(kind) === true ||
        denied.some((denial) => denial.action === action && resourceKindOf(denial.resource) === kind)
      );
    },
  };
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
  observed: LiveObservation | undefined,
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
    if (!declared.has(key)) report.missing_routes.push(route);
    else if (observed === undefined) report.exercised.routes.push(`${route.method} ${route.path}`);
  }
  if (observed === undefined) return;
  // Live: the declared routes the workload called and that answered.
  const called = new Set(
    observed.routes
      .filter((route) => route.status < 500 && route.status !== 404)
      .map((route) => `${route.method} ${patternOf(route.route)}`),
  );
  report.exercised.routes.push(...[...called].filter((key) => declared.has(key)).sort());
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
