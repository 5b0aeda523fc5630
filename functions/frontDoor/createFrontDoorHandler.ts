import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import { decodeStrictly } from "../../core/common/decodeStrictly.js";
import { type IntakeRouterDeps, routeIntakeRequest } from "../../core/intake/index.js";

/** Options of {@link createFrontDoorHandler}. */
export interface FrontDoorHandlerOptions {
  /** Where unexpected errors are reported. Default: one JSON line on stderr (the function's log). */
  log?: (entry: Record<string, unknown>) => void;
}

/**
 * The deployed front door: adapts API Gateway REST API proxy events to {@link routeIntakeRequest},
 * the router `decisions up` serves locally. The SigV4 caller is the one API Gateway's AWS_IAM
 * authorization established (`requestContext.identity.userArn`), never a header.
 */
export function createFrontDoorHandler(
  deps: IntakeRouterDeps,
  options: FrontDoorHandlerOptions = {},
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  const log =
    options.log ?? ((entry: Record<string, unknown>) => process.stderr.write(`${JSON.stringify(entry)}\n`));
  return async (event, context) => {
    const body = event.body === null ? undefined : bodyText(event);
    if (body === null)
      return answer(400, {}, { error: "the request body is not valid UTF-8", reason: "invalid_items" });
    try {
      const response = await routeIntakeRequest(deps, {
        method: event.httpMethod,
        // The resource template (`/v1/work-items`), not the request path, which carries a custom
        // domain's base path when there is one.
        path: event.resource,
        headers: lowerCase(event.headers),
        body,
        iamCaller: event.requestContext.identity?.userArn ?? undefined,
        context,
      });
      return answer(response.status, response.headers, response.body);
    } catch (error) {
      log({
        level: "ERROR",
        message: "front door request failed",
        requestId: event.requestContext.requestId,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return answer(
        500,
        {},
        {
          error: `the front door failed; see its log (request ${event.requestContext.requestId})`,
          reason: "internal",
          retryable: true,
        },
      );
    }
  };
}

function lowerCase(headers: APIGatewayProxyEvent["headers"]): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

/** The body as text; null when its base64 bytes are not UTF-8. */
function bodyText(event: APIGatewayProxyEvent): string | null {
  if (!event.isBase64Encoded) return event.body ?? "";
  return decodeStrictly(Buffer.from(event.body ?? "", "base64")) ?? null;
}

function answer(status: number, headers: Record<string, string>, body: unknown): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}
