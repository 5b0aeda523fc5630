import { z } from "zod";
import { isReviewOrder, REVIEW_ORDERS } from "../../contract/outcome/reviewOrder.js";
import { matchReviewRoute } from "../../contract/review/reviewRoutes.js";
import { decodeStrictly } from "../common/decodeStrictly.js";
import {
  AmendRequiredError,
  NotReviewableError,
  OutcomeNotFoundError,
  ReviewAnswerError,
  ReviewConflictError,
  ReviewHistoryFullError,
} from "../outcomes/index.js";
import { ReviewerNotAllowedError, ReviewRequestError, UnknownReviewPolicyError } from "./errors.js";
import type { ReviewApi } from "./ReviewApi.js";
import type { Reviewer } from "./reviewerOf.js";

/** A request as any transport hands it over. */
export interface ReviewHttpRequest {
  method: string;
  /** The path below the API's root, e.g. `/api/items/ticket-routing/T-1`, percent-encoded. */
  path: string;
  query: Readonly<Record<string, string | undefined>>;
  /** The body text (JSON) or undefined. */
  body?: string;
  /** Who asks, as the transport established it; undefined refuses writes (401). */
  reviewer?: Reviewer;
}

/** The answer: a status and a JSON body. */
export interface ReviewHttpResponse {
  status: number;
  body: unknown;
}

const ReviewBodySchema = z.object({
  answers: z.record(z.string().min(1).max(256), z.string().min(1).max(1024)),
  expect_updated_at: z.string().min(1).max(64),
  /** The review may change a person's answer (an item already reviewed): recorded as an amendment. */
  amend: z.boolean().optional(),
});

/** The largest review body accepted, in bytes. */
export const MAX_REVIEW_BODY_BYTES = 64 * 1024;

/**
 * Routes one API request of the review console to {@link ReviewApi} and maps its errors to HTTP
 * statuses (400 bad request, 401/403 reviewer, 404 unknown policy or item, 409 changed meanwhile
 * with the current outcome, or an amendment not asked for (`reason: "amend_required"`), 413 the
 * item's review history is full (`reason: "review_history_full"`), 422 an answer that does not fit). Never throws for a request's fault.
 *
 * Routes (the table `contract/review/reviewRoutes.ts`, which the CDK app declares too):
 * `GET /api/policies`, `GET /api/queue?policy&question&rule&max_age_hours&order&before&limit`
 * (`order`: newest (default), margin or entropy; a `question` no policy asked has is a 400 naming
 * the questions), `GET /api/queue/count?policy` (how many wait),
 * `GET /api/items/{policy}/{id}`, `POST /api/items/{policy}/{id}/review`
 * (`{answers: {question: answer}, expect_updated_at, amend?}`), `GET /api/policies/{policy}/stats`,
 * `GET /api/policies/{policy}/drift?since`, `GET /api/policies/{policy}/shadow?since&candidate`,
 * `GET /api/me`. An item's `{id}` is percent-encoded, or with `?id_encoding=base64url` the
 * base64url of its UTF-8 (how the page sends the ids `.` and `..`, which URL parsers remove).
 */
export async function routeReviewRequest(
  api: ReviewApi,
  request: ReviewHttpRequest,
): Promise<ReviewHttpResponse> {
  try {
    const match = matchReviewRoute(request.method, splitPath(request.path));
    if (match === undefined) return notFound(request.path);
    const policy = match.params.policy ?? "";
    switch (match.route.name) {
      case "me":
        return { status: 200, body: { reviewer: request.reviewer ?? null } };
      case "policies":
        return { status: 200, body: { policies: api.policyNames() } };
      case "stats":
        return { status: 200, body: await api.stats(policy) };
      case "drift":
        return { status: 200, body: await api.drift(policy, { since: request.query.since }) };
      case "shadow":
        return {
          status: 200,
          body: await api.shadow(policy, { since: request.query.since, candidate: request.query.candidate }),
        };
      case "queueCount":
        return { status: 200, body: await api.waiting(request.query.policy || undefined) };
      case "queue":
        return { status: 200, body: await api.queue(readQueueFilter(request.query)) };
      case "item":
        return {
          status: 200,
          body: await api.item(policy, itemIdOf(match.params.id ?? "", request.query.id_encoding)),
        };
      case "review": {
        const id = itemIdOf(match.params.id ?? "", request.query.id_encoding);
        if (request.reviewer === undefined)
          throw new ReviewerNotAllowedError(401, "say who you are before you review");
        const body = readReviewBody(request.body);
        const view = await api.review(
          policy,
          id,
          {
            answers: body.answers,
            expectUpdatedAt: body.expect_updated_at,
            ...(body.amend === true ? { amend: true } : {}),
          },
          request.reviewer,
        );
        return { status: 200, body: view };
      }
    }
    return notFound(request.path);
  } catch (error) {
    return responseOf(error);
  }
}

function splitPath(path: string): string[] {
  try {
    return (path.split("?")[0] ?? "")
      .split("/")
      .filter((part) => part.length > 0)
      .map((part) => decodeURIComponent(part));
  } catch (error) {
    throw new ReviewRequestError(["path"], "is not valid percent-encoding", { cause: error });
  }
}

/** The item id of a path segment, as `id_encoding` says it is written. @throws ReviewRequestError */
function itemIdOf(segment: string, encoding: string | undefined): string {
  if (encoding === undefined || encoding === "") return segment;
  if (encoding !== "base64url")
    throw new ReviewRequestError(["query", "id_encoding"], "give base64url, or leave it out");
  const bytes = Buffer.from(segment, "base64url");
  // Buffer skips what is not base64url: only a segment that is exactly an encoding is accepted.
  if (bytes.length === 0 || bytes.toString("base64url") !== segment)
    throw new ReviewRequestError(["path"], "is not the base64url of an item id");
  const id = decodeStrictly(bytes);
  if (id === undefined) throw new ReviewRequestError(["path"], "is not the base64url of a UTF-8 item id");
  return id;
}

function readQueueFilter(query: ReviewHttpRequest["query"]) {
  const number = (name: string): number | undefined => {
    const text = query[name];
    if (text === undefined || text === "") return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0)
      throw new ReviewRequestError(["query", name], "give a non-negative number");
    return value;
  };
  const text = (name: string): string | undefined => {
    const value = query[name];
    return value === undefined || value === "" ? undefined : value;
  };
  const policy = text("policy");
  const question = text("question");
  const rule = text("rule");
  const before = text("before");
  const maxAgeHours = number("max_age_hours");
  const limit = number("limit");
  const order = text("order");
  if (order !== undefined && !isReviewOrder(order))
    throw new ReviewRequestError(["query", "order"], `give one of ${REVIEW_ORDERS.join(", ")}`);
  return {
    ...(order === undefined ? {} : { order }),
    ...(policy === undefined ? {} : { policy }),
    ...(question === undefined ? {} : { question }),
    ...(rule === undefined ? {} : { rule }),
    ...(before === undefined ? {} : { before }),
    ...(maxAgeHours === undefined ? {} : { maxAgeHours }),
    ...(limit === undefined ? {} : { limit }),
  };
}

function readReviewBody(text: string | undefined): z.infer<typeof ReviewBodySchema> {
  if (text === undefined || text.length === 0)
    throw new ReviewRequestError(["body"], "send the review as JSON");
  if (Buffer.byteLength(text) > MAX_REVIEW_BODY_BYTES)
    throw new ReviewRequestError(["body"], `is larger than ${MAX_REVIEW_BODY_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ReviewRequestError(["body"], "is not JSON", { cause: error });
  }
  const parsed = ReviewBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReviewRequestError(
      ["body", ...(issue?.path ?? []).map(String)],
      issue?.message ?? "is not a review",
    );
  }
  return parsed.data;
}

function notFound(path: string): ReviewHttpResponse {
  return { status: 404, body: { error: `no such API route: ${path}` } };
}

function responseOf(error: unknown): ReviewHttpResponse {
  if (error instanceof ReviewRequestError)
    return { status: 400, body: { error: error.message, path: error.path } };
  if (error instanceof ReviewerNotAllowedError)
    return { status: error.status, body: { error: error.message } };
  if (error instanceof UnknownReviewPolicyError || error instanceof OutcomeNotFoundError)
    return { status: 404, body: { error: error.message } };
  if (error instanceof ReviewConflictError)
    return { status: 409, body: { error: error.message, current: error.current ?? null } };
  if (error instanceof AmendRequiredError)
    return {
      status: 409,
      body: {
        error: error.message,
        reason: "amend_required",
        questions: error.questions,
        current: error.outcome,
      },
    };
  if (error instanceof ReviewHistoryFullError)
    return {
      status: 413,
      body: {
        error: error.message,
        reason: "review_history_full",
        would_have: error.wouldHave,
        limits: error.limits,
      },
    };
  if (error instanceof ReviewAnswerError || error instanceof NotReviewableError)
    return { status: 422, body: { error: error.message } };
  throw error;
}
