import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { buildConsoleAssets, CONSOLE_CONTENT_SECURITY_POLICY } from "../../console/index.js";
import { type ReviewApi, routeReviewRequest } from "../../functions/reviewConsole/index.js";
import type { RoutePlan } from "../stack/LocalStackPlan.js";
import { API_GATEWAY_NOT_FOUND, matchTemplateRoute } from "./matchTemplateRoute.js";
import { refuseForeignRequest } from "./refuseForeignRequest.js";

/** Options of {@link startReviewServer}. */
export interface ReviewServerOptions {
  api: ReviewApi;
  /**
   * The routes of the console's HTTP API as the synthesized template declares them
   * (`LocalStackPlan.consoleRoutes`): a request under `/api/` that none matches gets API Gateway's
   * 404 (`{"message":"Not Found"}`) and never reaches the router, as on AWS.
   */
  routes: readonly RoutePlan[];
  /** Port on 127.0.0.1. Default 0 (a free one). */
  port?: number;
  /** The reviewer when the page names none (`decisions up --reviewer`). */
  defaultReviewer?: string;
  /** Where unexpected errors are reported. */
  log?: (line: string) => void;
}

/** The running console. */
export interface ReviewServer {
  url: string;
  stop(): Promise<void>;
}

/** The largest request body the local console reads. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Serves the review console on 127.0.0.1 for `decisions up`: the page (built once at start) and
 * its API, on the routes the template declares (`routes`; anything else under `/api/` is API
 * Gateway's 404). Locally there is no sign-in (loopback only): the reviewer's name comes from the page's
 * field (`X-Reviewer`) or `defaultReviewer`; requests from other web pages are refused
 * ({@link refuseForeignRequest}). Every answer carries the same security headers as
 * the deployed console (content security policy without inline scripts, no framing, no sniffing).
 */
export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const assets = await buildConsoleAssets();
  const log = options.log ?? (() => undefined);
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`review console: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!response.headersSent)
        send(response, 500, { error: "the review console failed; see the log of decisions up" });
      else response.destroy();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refuseForeignRequest(request, (server.address() as AddressInfo).port);
    if (refused !== undefined) return send(response, refused.status, { error: refused.error });
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/api/")) {
      if (matchTemplateRoute(options.routes, request.method ?? "GET", url.pathname) === undefined)
        return send(response, 404, API_GATEWAY_NOT_FOUND);
      const body = request.method === "POST" ? await readBody(request) : undefined;
      if (body === null)
        return send(response, 413, { error: `the body is larger than ${MAX_BODY_BYTES} bytes` });
      if (body === NOT_UTF8) return send(response, 400, { error: "the request body is not valid UTF-8" });
      const name = headerText(request.headers["x-reviewer"]) ?? options.defaultReviewer;
      const answer = await routeReviewRequest(options.api, {
        method: request.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        ...(body === undefined ? {} : { body }),
        ...(name === undefined || name.trim() === ""
          ? {}
          : { reviewer: { name: name.trim().slice(0, 200), source: "local" as const } }),
      });
      return send(response, answer.status, answer.body);
    }
    const file = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    const asset = assets.get(file);
    if (asset === undefined || (request.method !== "GET" && request.method !== "HEAD"))
      return send(response, 404, { error: `no such page: ${url.pathname}` });
    response.writeHead(200, {
      ...securityHeaders(),
      "content-type": asset.contentType,
      "cache-control": "no-cache",
    });
    response.end(asset.body);
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function securityHeaders(): Record<string, string> {
  return {
    "content-security-policy": CONSOLE_CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    ...securityHeaders(),
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(JSON.stringify(body));
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What {@link readBody} answers for bytes that are not UTF-8. */
const NOT_UTF8 = Symbol("not UTF-8");

/** Refuses bytes that are not UTF-8 (a TypeError) instead of replacing them with U+FFFD. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The body as text; null when it is larger than {@link MAX_BODY_BYTES}; {@link NOT_UTF8} when its
 * bytes are not UTF-8 (two ids differing only in invalid bytes must not become one).
 */
async function readBody(request: IncomingMessage): Promise<string | null | typeof NOT_UTF8> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  try {
    return STRICT_UTF8.decode(Buffer.concat(chunks));
  } catch (error) {
    if (error instanceof TypeError) return NOT_UTF8;
    throw error;
  }
}
