import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { decodeStrictly } from "../../core/common/decodeStrictly.js";
import { ReviewerNotAllowedError } from "../../core/review/errors.js";
import type { ReviewApi } from "../../core/review/ReviewApi.js";
import { type Reviewer, reviewerFromClaims } from "../../core/review/reviewerOf.js";
import { routeReviewRequest } from "../../core/review/routeReviewRequest.js";

/** The event API Gateway (HTTP API, payload 2.0) hands over after its JWT authorizer let it through. */
export type ReviewConsoleEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

/** Options of {@link createReviewConsoleHandler}. */
export interface ReviewConsoleHandlerOptions {
  /** Where unexpected errors are reported. Default: one JSON line on stderr (the function's log). */
  log?: (entry: Record<string, unknown>) => void;
}

/**
 * The deployed review console's API: adapts API Gateway's HTTP API events to
 * {@link routeReviewRequest}, the router `decisions up` serves locally.
 *
 * Who asks comes only from the claims of the token API Gateway's JWT authorizer verified
 * (`requestContext.authorizer.jwt.claims`) — never from the body or a header (the local console's
 * `X-Reviewer` is not read here). Every route, reads included, needs a member of the `reviewers`
 * group: without claims the answer is 401, with another group 403, and the router is not called.
 * API Gateway refuses a request without a valid token before this runs; the check here is the
 * second line, for a route that was deployed without the authorizer.
 */
export function createReviewConsoleHandler(
  api: ReviewApi,
  options: ReviewConsoleHandlerOptions = {},
): (event: ReviewConsoleEvent) => Promise<APIGatewayProxyStructuredResultV2> {
  const log =
    options.log ?? ((entry: Record<string, unknown>) => process.stderr.write(`${JSON.stringify(entry)}\n`));
  return async (event) => {
    let reviewer: Reviewer;
    try {
      reviewer = reviewerFromClaims(claimsOf(event));
    } catch (error) {
      if (error instanceof ReviewerNotAllowedError) return answer(error.status, { error: error.message });
      throw error;
    }
    const body = event.body === undefined ? undefined : bodyText(event);
    if (body === null) return answer(400, { error: "the request body is not valid UTF-8" });
    try {
      const response = await routeReviewRequest(api, {
        method: event.requestContext.http.method,
        path: event.rawPath,
        query: event.queryStringParameters ?? {},
        ...(body === undefined ? {} : { body }),
        reviewer,
      });
      return answer(response.status, response.body);
    } catch (error) {
      // What failed stays in the log; the page gets no internals.
      log({
        level: "ERROR",
        message: "review console request failed",
        route: event.routeKey,
        requestId: event.requestContext.requestId,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return answer(500, {
        error: `the review console failed; see the function's log (request ${event.requestContext.requestId})`,
      });
    }
  };
}

function claimsOf(event: ReviewConsoleEvent): Record<string, unknown> | undefined {
  const claims = (event.requestContext as { authorizer?: { jwt?: { claims?: unknown } } }).authorizer?.jwt
    ?.claims;
  return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : undefined;
}

/** The body as text; null when its base64 bytes are not UTF-8 (never replaced with U+FFFD). */
function bodyText(event: ReviewConsoleEvent): string | null {
  if (!event.isBase64Encoded) return event.body ?? "";
  return decodeStrictly(Buffer.from(event.body ?? "", "base64")) ?? null;
}

function answer(status: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      // Answers carry one reviewer's view; no cache (CloudFront's included) may keep them.
      "cache-control": "no-store",
    },
    body: JSON.stringify(body),
  };
}
