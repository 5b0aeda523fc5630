import { createHash } from "node:crypto";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyValidationError,
} from "@aws-lambda-powertools/idempotency";
import type { Context } from "aws-lambda";
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  type IntakeErrorAnswer,
  MAX_IDEMPOTENCY_KEY_CHARS,
  MAX_INTAKE_BODY_BYTES,
  matchIntakeRoute,
} from "../../contract/intake/index.js";
import { workItemJsonSchema } from "../../contract/workItem/workItemJsonSchema.js";
import { type AcceptWorkItemsPorts, acceptWorkItems } from "./acceptWorkItems.js";
import {
  IntakeSendError,
  IntakeTooLargeError,
  InvalidItemsError,
  UnknownIntakePolicyError,
  WebhookRefusedError,
} from "./errors.js";
import type { IntakeIdempotency } from "./IntakeIdempotency.js";
import { readIntakeBody } from "./readIntakeBody.js";
import { type ValidIntakeItem, validateIntakeItems } from "./validateIntakeItems.js";
import { verifyWebhookRequest } from "./verifyWebhookRequest.js";

/** A request as any transport hands it over (API Gateway's event, the local server). */
export interface IntakeHttpRequest {
  method: string;
  /** The path below the API's stage, e.g. `/v1/webhooks/work-items`. */
  path: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body as text (UTF-8), undefined when none. */
  body: string | undefined;
  /**
   * The caller API Gateway established for the SigV4 route (its IAM ARN); undefined where nobody
   * checked SigV4 (locally), which refuses that route.
   */
  iamCaller: string | undefined;
  /** The request's Lambda context (locally, one made for it): its deadline bounds the idempotency mark. */
  context: Context;
}

/** The answer: a status, headers and a JSON body. */
export interface IntakeHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What the router works with. */
export interface IntakeRouterDeps extends AcceptWorkItemsPorts {
  /** The policies this deployment decides, by name. */
  policyNames: readonly string[];
  /** The webhook senders' secret (`whsec_…`); undefined refuses the webhook route with 401. */
  webhookSecret: string | undefined;
  idempotency: IntakeIdempotency;
}

/**
 * Routes one front door request ({@link INTAKE_ROUTES}) and maps every refusal to its status by
 * class. The steps of `POST`: the caller (401: webhook signature, or no SigV4 caller), the body's
 * size (413 over {@link MAX_INTAKE_BODY_BYTES}), its form and item count (400, 413 over
 * {@link MAX_INTAKE_ITEMS}), every item against the work item's schema (400 naming each field; nothing
 * is sent), the policies (404 naming the known ones), then once per idempotency key the items on
 * their lanes (202; the same key again: the first answer, `Idempotent-Replayed: true`; other items
 * under the key: 422; while the first runs: 409). Never throws for a request's fault.
 *
 * The idempotency key is the `Idempotency-Key` header, else the webhook's `webhook-id` (what a
 * Standard Webhooks sender keeps across its retries), else the items' policies and ids; it is
 * scoped by the caller.
 */
export async function routeIntakeRequest(
  deps: IntakeRouterDeps,
  request: IntakeHttpRequest,
): Promise<IntakeHttpResponse> {
  const route = matchIntakeRoute(request.method, request.path);
  if (route === undefined)
    return refuse(
      404,
      "no_route",
      `no route ${request.method} ${request.path}: post work items to /v1/work-items (SigV4) or /v1/webhooks/work-items (signed webhook)`,
    );
  if (route.name === "workItemSchema")
    return { status: 200, headers: { "cache-control": "max-age=300" }, body: workItemJsonSchema() };
  try {
    const body = request.body ?? "";
    const bytes = Buffer.byteLength(body, "utf8");
    if (bytes > MAX_INTAKE_BODY_BYTES)
      throw new IntakeTooLargeError(
        `the body is ${bytes} bytes; at most ${MAX_INTAKE_BODY_BYTES} bytes are taken per request: send fewer items per request`,
      );
    const caller = callerOf(route.auth, request, deps.webhookSecret);
    const items = validateIntakeItems(readIntakeBody(body).items);
    checkPolicies(items, deps.policyNames);
    const key = idempotencyKeyOf(request, caller, items);
    const { answer, replayed } = await deps.idempotency.run(
      { key: `${caller.scope}#${key}`, payload: items.map((item) => item.text) },
      request.context,
      () => acceptWorkItems(items, key, deps),
    );
    return { status: 202, headers: replayed ? { [IDEMPOTENT_REPLAY_HEADER]: "true" } : {}, body: answer };
  } catch (error) {
    return answerOf(error);
  }
}

/** Who calls: the webhook sender (its signature checked) or the SigV4 caller API Gateway named. */
function callerOf(
  auth: "iam" | "webhook" | "none",
  request: IntakeHttpRequest,
  secret: string | undefined,
): { scope: string; webhookId: string | undefined } {
  if (auth === "webhook") {
    const webhookId = verifyWebhookRequest(secret, { body: request.body ?? "", headers: request.headers });
    return { scope: "webhook", webhookId };
  }
  if (request.iamCaller === undefined || request.iamCaller === "")
    throw new WebhookRefusedError(
      "no_sigv4_caller",
      "this route takes AWS SigV4 callers, checked by API Gateway, and none was named (locally nothing checks SigV4): post to /v1/webhooks/work-items signed as a webhook sender instead",
    );
  return { scope: `iam:${request.iamCaller}`, webhookId: undefined };
}

function checkPolicies(items: readonly ValidIntakeItem[], known: readonly string[]): void {
  const unknown = items.filter((item) => !known.includes(item.item.policy));
  if (unknown.length === 0) return;
  const named = [...new Set(unknown.map((item) => item.item.policy))];
  throw new UnknownIntakePolicyError(
    `unknown policy ${named.map((name) => JSON.stringify(name)).join(", ")} (item ${unknown.map((item) => item.index).join(", ")}); this deployment knows: ${known.join(", ") || "none"}; nothing was sent`,
    { knownPolicies: known },
  );
}

function idempotencyKeyOf(
  request: IntakeHttpRequest,
  caller: { webhookId: string | undefined },
  items: readonly ValidIntakeItem[],
): string {
  const given = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (given !== undefined && given !== "") {
    if (given.length > MAX_IDEMPOTENCY_KEY_CHARS)
      throw new InvalidItemsError(`Idempotency-Key is longer than ${MAX_IDEMPOTENCY_KEY_CHARS} characters`, {
        problems: [
          {
            index: 0,
            path: [],
            field: "(Idempotency-Key header)",
            rule: `at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters`,
          },
        ],
      });
    return given;
  }
  if (caller.webhookId !== undefined) return `webhook-id:${caller.webhookId}`;
  const ids = JSON.stringify(items.map((item) => [item.item.policy, item.item.id]));
  return `items:${createHash("sha256").update(ids).digest("hex")}`;
}

/** A refusal's status and body, by the error's class. */
function answerOf(error: unknown): IntakeHttpResponse {
  if (error instanceof WebhookRefusedError) return refuse(401, error.reason, error.message);
  if (error instanceof IntakeTooLargeError) return refuse(413, "too_large", error.message);
  if (error instanceof InvalidItemsError)
    return refuse(400, "invalid_items", error.message, { problems: [...error.details.problems] });
  if (error instanceof UnknownIntakePolicyError)
    return refuse(404, "unknown_policy", error.message, { known_policies: [...error.details.knownPolicies] });
  if (error instanceof IdempotencyValidationError)
    return refuse(
      422,
      "key_reused",
      "this idempotency key was used before for other items: use a new key for new items (the key is the Idempotency-Key header, else the webhook-id)",
    );
  if (error instanceof IdempotencyAlreadyInProgressError)
    return refuse(
      409,
      "in_progress",
      "the first request under this key is still being accepted: retry in a second",
      { retryable: true },
      { "retry-after": "1" },
    );
  if (error instanceof IntakeSendError)
    return refuse(503, "queue_unavailable", error.message, { retryable: true }, { "retry-after": "5" });
  throw error;
}

function refuse(
  status: number,
  reason: string,
  message: string,
  extra: Omit<IntakeErrorAnswer, "error" | "reason"> = {},
  headers: Record<string, string> = {},
): IntakeHttpResponse {
  return { status, headers, body: { error: message, reason, ...extra } satisfies IntakeErrorAnswer };
}
