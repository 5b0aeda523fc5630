import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";

/** One request a receiver got, and the status it answered. */
export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
  answered: number;
}

/** What a receiver answers: a status alone (empty body), or a status with headers and a body. */
export type ReceiverAnswer = number | { status: number; headers?: Record<string, string>; body?: string };

/** A webhook receiver on 127.0.0.1 and the requests it got, in order. */
export interface WebhookReceiver {
  server: Server;
  /** `http://127.0.0.1:<port>/hooks` (the receiver answers on every path). */
  url: string;
  port: number;
  got: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1 (`port`, default any free one) that records each request's
 * headers and body and answers `answer(n)` to its n-th request (1-based): the receiving end of the
 * delivery tests.
 */
export async function startWebhookReceiver(
  answer: (n: number) => ReceiverAnswer = () => 204,
  port = 0,
): Promise<WebhookReceiver> {
  const got: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const given = answer(got.length + 1);
      const { status, headers, body } = typeof given === "number" ? { status: given } : given;
      got.push({
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([key, value]) => [key, String(value)]),
        ),
        body: Buffer.concat(chunks).toString("utf8"),
        answered: status,
      });
      response.writeHead(status, headers ?? {}).end(body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  return {
    server,
    url: `http://127.0.0.1:${address.port}/hooks`,
    port: address.port,
    got,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
