import type { IncomingHttpHeaders } from "node:http";

/** Why a request to the local review console is refused: its status and message. */
export interface ForeignRequestRefusal {
  status: 403 | 415 | 421;
  error: string;
}

/**
 * The local review console has no sign-in: being on 127.0.0.1 is its only guard. That guard alone
 * does not stop a web page open in the same browser, which can send requests to 127.0.0.1 (a form
 * or a `no-cors` fetch posts `text/plain` without asking first) or rebind its own host name to
 * 127.0.0.1 and then read the answers as its own. So the console answers only requests that name
 * it by its own address (the Host header: a rebound name is refused) and, for writes, only JSON
 * (which a cross-origin page cannot send without a CORS preflight, which this server never grants)
 * from its own origin (the Origin and Sec-Fetch-Site headers browsers add). Clients that are not
 * browsers (curl, scripts) send no Origin and pass.
 *
 * Returns undefined for a request to serve.
 */
export function refuseForeignRequest(
  request: { method?: string; headers: IncomingHttpHeaders },
  port: number,
): ForeignRequestRefusal | undefined {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !own.includes(host)) {
    return {
      status: 421,
      error: `this console answers only as http://127.0.0.1:${port}/ (the request named the host ${JSON.stringify(host ?? "")})`,
    };
  }
  const method = request.method ?? "GET";
  if (method === "GET" || method === "HEAD") return undefined;
  const origin = request.headers.origin;
  const site = request.headers["sec-fetch-site"];
  if (
    (origin !== undefined && !own.some((address) => origin.toLowerCase() === `http://${address}`)) ||
    (site !== undefined && site !== "same-origin" && site !== "none")
  ) {
    return {
      status: 403,
      error: `writes are taken only from the console's own page (http://127.0.0.1:${port}/), not from ${origin ?? site}`,
    };
  }
  const type = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return { status: 415, error: `a write's body must be application/json, not ${type ?? "untyped"}` };
  }
  return undefined;
}
