import { join } from "node:path";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from "@aws-sdk/client-dynamodb";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { Webhook } from "standardwebhooks";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { REVIEW_ROUTES } from "../../contract/index.js";
import { intakePathOf } from "../../contract/intake/index.js";
import { IntakeIdempotency, routeIntakeRequest } from "../../core/intake/index.js";
import { type StoredOutcome, SUPERSEDE_ATTRIBUTE, supersedeMarkerText } from "../../core/outcomes/index.js";
import { loadPolicies, type PolicySet } from "../../core/policy/index.js";
import { createDriftMonitorDeps } from "../../functions/driftMonitor/createDriftMonitorDeps.js";
import { readDriftMonitorConfig } from "../../functions/driftMonitor/readDriftMonitorConfig.js";
import { createJobsMonitorDeps } from "../../functions/jobsMonitor/createJobsMonitorDeps.js";
import { readJobsMonitorConfig } from "../../functions/jobsMonitor/readJobsMonitorConfig.js";
import type { ItemView, QueuePage } from "../../functions/reviewConsole/index.js";
import { ReviewApi, routeReviewRequest } from "../../functions/reviewConsole/index.js";
import { createLambdaContext } from "../../local/eventSource/createLambdaContext.js";
import type { LocalResourceNames } from "../../local/iam/DeployedNames.js";
import type { LocalIam } from "../../local/iam/LocalIam.js";
import type { TemplateResolver } from "../../local/iam/TemplateResolver.js";
import type { TemplateFunctionName } from "../../local/iam/templateFunctions.js";
import { templateFunctionOf } from "../../local/iam/templateFunctions.js";
import { LOCAL_CREDENTIALS } from "../../local/stack/createLocalClients.js";
import type { LocalStack } from "../../local/stack/LocalStack.js";
import { runControllerTick } from "./controllerTick.js";

/** The local name of the front door's idempotency table (the template's `IDEMPOTENCY_TABLE`). */
export const FRONT_DOOR_TABLE = "front-door-idempotency";

/**
 * The local names of the workload's own resources and the template's resources they stand for
 * (`LocalIamOptions.names`): the front door's idempotency table, as its `IDEMPOTENCY_TABLE` names it.
 */
export function liveWorkloadNames(resolver: TemplateResolver): Partial<LocalResourceNames> {
  const frontDoor = templateFunctionOf(resolver, "frontDoor");
  if (frontDoor === undefined) return {};
  const variables =
    (
      resolver.resource(frontDoor.logicalId).Properties?.Environment as
        | { Variables?: Record<string, unknown> }
        | undefined
    )?.Variables ?? {};
  const table = (variables.IDEMPOTENCY_TABLE as { Ref?: string } | undefined)?.Ref;
  return table === undefined ? {} : { tables: { [FRONT_DOOR_TABLE]: table } };
}

/** A console route the workload called and what it answered. */
export interface CalledRoute {
  method: string;
  /** The route as the table declares it (`/api/items/{policy}/{id}`). */
  route: string;
  status: number;
}

/** What the workload did beyond the demo, and what did not go as it should. */
export interface LiveWorkloadResult {
  routes: CalledRoute[];
  /** Steps that did not end as they should (an answer other than 2xx, a redecide not seen). */
  problems: string[];
}

/** Options of {@link driveLiveWorkload}. */
export interface LiveWorkloadOptions {
  /** The running stack, with IAM enforced. */
  stack: LocalStack;
  /** The policies. Default `<repo>/policies`. */
  policyDir?: string;
  /** Progress lines. Default: none. */
  log?: (line: string) => void;
  /** How long a redecide may take. Default 120 s. */
  timeoutMs?: number;
}

/**
 * The rehearsal's workload after the demo's (tickets, incidents, a batch job to completion): each
 * function the local stack does not run by itself, built as its handler builds it, its clients
 * authorized as it on the stack's IAM, with the environment the template gives it (the local names
 * in place of the deployed ones):
 *
 * - the review console's API (`ReviewApi` as the deployed handler builds it, without the state
 *   archive it is not given there): every route of `REVIEW_ROUTES` as the page calls it through the
 *   router both transports use (`routeReviewRequest`), a review and an amendment of an item waiting
 *   for review, drift and the shadow report;
 * - a redecide (an outcome's kept work item sent again with the supersede marker, as `decisions
 *   outcomes redecide` sends it), decided again by the decide function;
 * - the drift monitor's and the jobs monitor's check;
 * - the capacity controller's check, its SageMaker and Lambda answers modelled from the template
 *   ({@link runControllerTick});
 * - the front door: a signed webhook with one work item, decided in its lane.
 */
export async function driveLiveWorkload(options: LiveWorkloadOptions): Promise<LiveWorkloadResult> {
  const { stack } = options;
  const iam = stack.iam;
  if (iam === undefined) throw new Error("the live workload needs a stack with IAM enforced");
  const log = options.log ?? (() => undefined);
  const policies = await loadPolicies(options.policyDir ?? join(packageRoot(), "policies"));
  const clients: { destroy(): void }[] = [];
  const own = <C extends { destroy(): void }>(client: C): C => {
    clients.push(client);
    return client;
  };
  const dynamodbOf = (name: TemplateFunctionName) =>
    own(iam.authorize(new DynamoDBClient({ ...connection(stack), endpoint: stack.dynamodbEndpoint }), name));
  const result: LiveWorkloadResult = { routes: [], problems: [] };
  // Each step on its own: one that fails (a refused call among the causes) is told, and the next runs.
  const step = async (name: string, run: () => Promise<void>) => {
    log(name);
    await run().catch((error: unknown) => {
      result.problems.push(`${name}: ${messageOf(error)}`);
    });
  };
  const timeoutMs = options.timeoutMs ?? 120_000;
  try {
    await step("the review console's routes: a review and an amendment, drift, the shadow report", () =>
      driveConsole(stack, dynamodbOf("reviewConsole"), policies, result),
    );
    await step("a redecide", () => redecide(stack, timeoutMs, result));
    await step("the drift monitor's and the jobs monitor's checks", () =>
      runMonitors(iam, dynamodbOf, result),
    );
    if (templateFunctionOf(iam.names.resolver, "capacityController") !== undefined) {
      await step(
        "the capacity controller's tick (SageMaker's control plane and the event source mappings modelled)",
        async () => {
          const tick = await runControllerTick(stack, iam, localEnvironment(iam, "capacityController"));
          result.problems.push(
            ...tick.failures.map((failure) => `the capacity controller's check could not ${failure}`),
          );
        },
      );
    }
    if (templateFunctionOf(iam.names.resolver, "frontDoor") !== undefined) {
      await step("the front door: a signed webhook", () => {
        const sqs = own(
          iam.authorize(
            new SQSClient({
              ...connection(stack),
              endpoint: stack.sqsEndpoint,
              useQueueUrlAsEndpoint: false,
            }),
            "frontDoor",
          ),
        );
        return postWebhook(stack, dynamodbOf("frontDoor"), sqs, policies, timeoutMs, result);
      });
    }
  } finally {
    for (const client of clients) client.destroy();
  }
  return result;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function connection(stack: LocalStack) {
  return { region: stack.region, credentials: LOCAL_CREDENTIALS };
}

/** The review console as the deployed handler builds it, every route called as the page calls it. */
async function driveConsole(
  stack: LocalStack,
  dynamodb: DynamoDBClient,
  policies: PolicySet,
  result: LiveWorkloadResult,
): Promise<void> {
  const api = new ReviewApi({
    client: DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } }),
    tableName: stack.table,
    policies,
  });
  const reviewer = { name: "rehearsal", source: "local" as const };
  const call = async (method: "GET" | "POST", route: string, path: string, body?: unknown) => {
    const [pathname = "", search = ""] = path.split("?");
    // What the router throws (the table refused, a refused call among them) is a 500, as both
    // transports answer it.
    const answer = await routeReviewRequest(api, {
      method,
      path: pathname,
      query: Object.fromEntries(new URLSearchParams(search)),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      reviewer,
    }).catch((error: unknown) => ({ status: 500, body: { error: messageOf(error) } }));
    result.routes.push({ method, route, status: answer.status });
    if (answer.status >= 300)
      result.problems.push(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const routeOf = (name: string) => REVIEW_ROUTES.find((route) => route.name === name)?.path ?? name;
  await call("GET", routeOf("me"), "/api/me");
  await call("GET", routeOf("policies"), "/api/policies");
  await call("GET", routeOf("queueCount"), "/api/queue/count");
  let reviewed = false;
  for (const policy of policies.names()) {
    const at = (name: string) => `/api/policies/${encodeURIComponent(policy)}/${name}`;
    await call("GET", routeOf("stats"), at("stats"));
    await call("GET", routeOf("drift"), at("drift"));
    await call("GET", routeOf("shadow"), at("shadow"));
    const page = (await call("GET", routeOf("queue"), `/api/queue?policy=${encodeURIComponent(policy)}`)) as
      | QueuePage
      | undefined;
    const waiting = page?.items?.[0];
    if (reviewed || waiting === undefined) continue;
    const itemPath = `/api/items/${encodeURIComponent(policy)}/${encodeURIComponent(waiting.id)}`;
    const view = (await call("GET", routeOf("item"), itemPath)) as ItemView | undefined;
    const answers = (pick: number) =>
      Object.fromEntries(
        (view?.open_questions ?? []).map((question) => {
          const options = view?.policy.questions.find((entry) => entry.id === question)?.options ?? [];
          return [question, options[pick % Math.max(1, options.length)]?.label ?? ""];
        }),
      );
    reviewed = true;
    if (view?.outcome === undefined) continue;
    const first = (await call("POST", routeOf("review"), `${itemPath}/review`, {
      answers: answers(0),
      expect_updated_at: view.outcome.updated_at,
    })) as ItemView | undefined;
    if (first?.outcome === undefined) continue;
    await call("POST", routeOf("review"), `${itemPath}/review`, {
      answers: answers(1),
      expect_updated_at: first.outcome.updated_at,
      amend: true,
    });
  }
  if (!reviewed)
    result.problems.push("no item waited for review: the review and the amendment were not made");
}

/** An outcome's kept work item sent again with the supersede marker; waits until it was decided again. */
async function redecide(stack: LocalStack, timeoutMs: number, result: LiveWorkloadResult): Promise<void> {
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const key = { policy: "ticket-routing", id: "TCK-10400" };
  const read = async () =>
    (await documents.send(new GetCommand({ TableName: stack.table, Key: key }))).Item as
      | StoredOutcome
      | undefined;
  const before = await read();
  if (before?.work_item === undefined) {
    result.problems.push(`no outcome ${key.policy}/${key.id} with a kept work item to redecide`);
    return;
  }
  await stack.clients.sqs.send(
    new SendMessageCommand({
      QueueUrl: stack.lanes.interactive.queueUrl,
      MessageBody: before.work_item,
      MessageAttributes: {
        [SUPERSEDE_ATTRIBUTE]: { DataType: "String", StringValue: supersedeMarkerText(before.updated_at) },
      },
    }),
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await read())?.updated_at !== before.updated_at) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  result.problems.push(
    `the redecide of ${key.policy}/${key.id} was not decided within ${timeoutMs / 1000} s`,
  );
}

/**
 * The function's environment as the template gives it, each deployed table's name replaced by
 * the local stack's name for it.
 */
function localEnvironment(iam: LocalIam, name: TemplateFunctionName): Record<string, string> {
  const fn = templateFunctionOf(iam.names.resolver, name);
  if (fn === undefined) return {};
  const { resolver, local } = iam.names;
  const localOf = new Map(
    Object.entries(local.tables).map(([localName, logicalId]) => [
      resolver.physicalName(logicalId),
      localName,
    ]),
  );
  const variables =
    (
      resolver.resource(fn.logicalId).Properties?.Environment as
        | { Variables?: Record<string, unknown> }
        | undefined
    )?.Variables ?? {};
  return Object.fromEntries(
    Object.entries(variables).map(([variable, value]) => {
      const resolved = resolver.resolveString(value);
      return [variable, localOf.get(resolved) ?? resolved];
    }),
  );
}

/** The drift monitor's and the jobs monitor's check, as their schedules run them. */
async function runMonitors(
  iam: LocalIam,
  dynamodbOf: (name: TemplateFunctionName) => DynamoDBClient,
  result: LiveWorkloadResult,
): Promise<void> {
  const logger = new Logger({ logLevel: "SILENT" });
  const metrics = new Metrics({ namespace: "DecisionPipelineLocal", logger });
  const steps: [string, () => Promise<unknown>][] = [
    [
      "the drift monitor",
      () =>
        createDriftMonitorDeps(readDriftMonitorConfig(localEnvironment(iam, "driftMonitor")), {
          dynamodb: dynamodbOf("driftMonitor"),
          logger,
          metrics,
        }).monitor.check(),
    ],
    [
      "the jobs monitor",
      () =>
        createJobsMonitorDeps(readJobsMonitorConfig(localEnvironment(iam, "jobsMonitor")), {
          dynamodb: dynamodbOf("jobsMonitor"),
          logger,
          metrics,
        }).monitor.check(),
    ],
  ];
  for (const [name, check] of steps) {
    await check().catch((error: unknown) => {
      result.problems.push(
        `${name}'s check failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}

/** One work item through the front door's webhook route, decided in its policy's lane. */
async function postWebhook(
  stack: LocalStack,
  dynamodb: DynamoDBClient,
  sqs: SQSClient,
  policies: PolicySet,
  timeoutMs: number,
  result: LiveWorkloadResult,
): Promise<void> {
  // The table as CloudFormation would create it (Powertools' layout: `id`), by the stack's own client.
  await stack.clients.dynamodb
    .send(
      new CreateTableCommand({
        TableName: FRONT_DOOR_TABLE,
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        BillingMode: "PAY_PER_REQUEST",
      }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof ResourceInUseException)) throw error;
    });
  const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
  const item = {
    id: `rehearsal-${Date.now()}`,
    policy: "ticket-routing",
    state: { subject: "Where is my package?", body: "It has not arrived.", channel: "email" },
  };
  const body = JSON.stringify(item);
  const messageId = `msg_${crypto.randomUUID()}`;
  const at = new Date();
  const answer = await routeIntakeRequest(
    {
      sqs,
      queueUrls: { interactive: stack.lanes.interactive.queueUrl, bulk: stack.lanes.bulk.queueUrl },
      policyNames: policies.names(),
      laneOfPolicy: (name) => policies.get(name)?.lane,
      webhookSecret: secret,
      idempotency: new IntakeIdempotency({
        persistenceStore: new DynamoDBPersistenceLayer({
          tableName: FRONT_DOOR_TABLE,
          awsSdkV3Client: dynamodb,
        }),
      }),
    },
    {
      method: "POST",
      path: intakePathOf("webhookWorkItems"),
      headers: {
        "content-type": "application/json",
        "webhook-id": messageId,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign(messageId, at, body),
        "idempotency-key": item.id,
      },
      body,
      iamCaller: undefined,
      context: createLambdaContext({ functionName: "front-door", region: stack.region, timeoutMs: 30_000 }),
    },
  );
  if (answer.status !== 202) {
    result.problems.push(`the front door answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return;
  }
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const got = await documents.send(
      new GetCommand({ TableName: stack.table, Key: { policy: item.policy, id: item.id } }),
    );
    if (got.Item !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  result.problems.push(`the front door's item ${item.id} was not decided within ${timeoutMs / 1000} s`);
}
