/** A small HTTP client over node:http for the server tests: raw control of headers and body. */
import { type Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface SendOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string | number>;
  /** A string or Buffer is sent as is; anything else as JSON. `undefined` sends no body. */
  body?: unknown;
  /** Send the body in chunks without Content-Length. */
  chunked?: boolean;
  agent?: Agent | false;
  signal?: AbortSignal;
}

export interface SendResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response JSON
  json: any;
}

/** Sends one request to 127.0.0.1:`port` and reads the whole response. */
export function send(port: number, options: SendOptions = {}): Promise<SendResult> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string" || Buffer.isBuffer(options.body)
        ? Buffer.from(options.body)
        : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string | number> = {
    ...(body !== undefined ? { "content-type": "application/json" } : {}),
    ...(body !== undefined && options.chunked !== true ? { "content-length": body.length } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        path: options.path ?? "/invocations",
        headers,
        agent: options.agent ?? false,
        signal: options.signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = text === "" ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (body !== undefined && options.chunked === true) {
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else {
      req.end(body);
    }
  });
}

/** The seed article's example decision. */
export function supportRouteDecision() {
  return {
    id: "support-route",
    state: "Customer says: I was charged twice for my subscription this month.",
    question: "Which team should handle this ticket?",
    options: [
      { id: "billing", description: "Billing and payment support." },
      { id: "technical", description: "Technical support for bugs and outages." },
      { id: "sales", description: "Sales and product evaluation." },
    ],
  };
}
