import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import {
  CreateTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { intakePathOf, MAX_INTAKE_BODY_BYTES } from "../../contract/intake/index.js";
import type { Lane } from "../../contract/lanes/lanes.js";
import { IntakeIdempotency, routeIntakeRequest } from "../../core/intake/index.js";
import type { PolicySet } from "../../core/policy/index.js";
import { createLambdaContext } from "../eventSource/createLambdaContext.js";

/** Options of {@link startFrontDoor}. */
export interface FrontDoorServerOptions {
  sqs: Pick<SQSClient, "send">;
  /** The DynamoDB client the idempotency table is created and kept with (DynamoDB Local). */
  dynamodb: DynamoDBClient;
  region: string;
  /** Each lane's work queue. */
  queueUrls: Readonly<Record<Lane, string>>;
  /** The policies items may name, and the lane each declares. */
  policies: PolicySet;
  /** The webhook senders' secret (`decisions up --webhook-secret`); undefined refuses webhook requests with 401. */
  webhookSecret: string | undefined;
  /** The idempotency table's name. Default `front-door-idempotency`. */
  idempotencyTable?: string;
  /** Port on 127.0.0.1. Default 0 (a free one). */
  port?: number;
  /** How long one request may take, in milliseconds (its idempotency mark's lifetime). Default 30000. */
  requestTimeoutMs?: number;
  /** Where unexpected errors are reported. */
  log?: (line: string) => void;
}

/** The running front door. */
export interface FrontDoorServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Where webhook senders post: `<url>/v1/webhooks/work-items` (`decisions up`'s `submit_url`). */
  submitUrl: string;
  stop(): Promise<void>;
}

/**
 * Serves the front door on 127.0.0.1 for `decisions up`: the same router as the deployed function
 * (`routeIntakeRequest`), its idempotency table created in DynamoDB Local (Powertools' layout:
 * `id` key, `expiration` TTL). Locally nothing checks SigV4, so `POST /v1/work-items` is refused
 * (401) and webhook senders post to `submitUrl`.
 */
export async function startFrontDoor(options: FrontDoorServerOptions): Promise<FrontDoorServer> {
  const tableName = options.idempotencyTable ?? "front-door-idempotency";
  await createIdempotencyTable(options.dynamodb, tableName);
  const log = options.log ?? (() => undefined);
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const deps = {
    sqs: options.sqs,
    queueUrls: options.queueUrls,
    policyNames: options.policies.names(),
    laneOfPolicy: (name: string) => options.policies.get(name)?.lane,
    webhookSecret: options.webhookSecret,
    idempotency: new IntakeIdempotency({
      persistenceStore: new DynamoDBPersistenceLayer({ tableName, awsSdkV3Client: options.dynamodb }),
    }),
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`front door: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!response.headersSent)
        send(
          response,
          500,
          {},
          {
            error: "the front door failed; see the log of decisions up",
            reason: "internal",
            retryable: true,
          },
        );
      else response.destroy();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const body = request.method === "POST" ? await readBody(request) : undefined;
    if (body === TOO_LARGE)
      return send(
        response,
        413,
        {},
        {
          error: `the body is larger than ${MAX_INTAKE_BODY_BYTES} bytes: send fewer items per request`,
          reason: "too_large",
        },
      );
    if (body === NOT_UTF8)
      return send(
        response,
        400,
        {},
        { error: "the request body is not valid UTF-8", reason: "invalid_items" },
      );
    const answer = await routeIntakeRequest(deps, {
      method: request.method ?? "GET",
      path: url.pathname,
      headers: headersOf(request),
      body,
      iamCaller: undefined,
      context: createLambdaContext({ functionName: "front-door", region: options.region, timeoutMs }),
    });
    return send(response, answer.status, answer.headers, answer.body);
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    submitUrl: `${url}${intakePathOf("webhookWorkItems")}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Creates Powertools' idempotency table (`id` key, `expiration` TTL); one already there is kept. */
async function createIdempotencyTable(dynamodb: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await dynamodb.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
  } catch (error) {
    if (error instanceof ResourceInUseException) return;
    throw error;
  }
  await dynamodb.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: "expiration", Enabled: true },
    }),
  );
}

function headersOf(request: IncomingMessage): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(", ") : value,
    ]),
  );
}

function send(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  response.end(JSON.stringify(body));
}

const TOO_LARGE = Symbol("too large");
const NOT_UTF8 = Symbol("not UTF-8");
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as text, or why it cannot be read: larger than the bound, or not UTF-8. */
async function readBody(request: IncomingMessage): Promise<string | typeof TOO_LARGE | typeof NOT_UTF8> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    // Past the bound the rest is drained unread, so the client gets the 413 and not a reset.
    if (size > MAX_INTAKE_BODY_BYTES) continue;
    chunks.push(chunk as Buffer);
  }
  if (size > MAX_INTAKE_BODY_BYTES) return TOO_LARGE;
  try {
    return STRICT_UTF8.decode(Buffer.concat(chunks));
  } catch (error) {
    if (error instanceof TypeError) return NOT_UTF8;
    throw error;
  }
}
