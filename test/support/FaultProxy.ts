/**
 * A small fault-injecting HTTP proxy for integration tests, on 127.0.0.1: forwards every request
 * to a target (the adapter) unless told to answer with an error status instead, so "503 twice then
 * 200" and "always 503" can be produced in front of the real adapter. Written here because the
 * failure has to come from the container side of the SageMaker gateway; no package does this.
 */
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A fault plan: answer the next `count` requests (Infinity: all) with `status` and a retryable body. */
export interface Fault {
  status: number;
  count: number;
}

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests received (forwarded or failed), since start or the last `reset`. */
  requests: number;
  /** Requests answered with a fault. */
  faulted: number;
  /** Bodies of the requests forwarded, in order (since start or the last `reset`). */
  bodies: string[];
  /** Answer the next `count` requests with `status` (default: all of them). */
  fail(status: number, count?: number): void;
  /** Forward everything again and zero the counters. */
  reset(): void;
  /** Called for each request before it is answered (a test may move a fake clock here). */
  onRequest: ((request: IncomingMessage) => void) | undefined;
  stop(): Promise<void>;
}

/** Starts a {@link FaultProxy} in front of `targetUrl` (`http://127.0.0.1:<port>`). */
export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  let fault: Fault | undefined;
  const proxy: FaultProxy = {
    url: "",
    requests: 0,
    faulted: 0,
    bodies: [],
    onRequest: undefined,
    fail(status, count = Number.POSITIVE_INFINITY) {
      fault = { status, count };
    },
    reset() {
      fault = undefined;
      proxy.requests = 0;
      proxy.faulted = 0;
      proxy.bodies = [];
    },
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((incoming, outgoing) => {
    proxy.requests += 1;
    proxy.onRequest?.(incoming);
    if (fault !== undefined && fault.count > 0) {
      fault.count -= 1;
      proxy.faulted += 1;
      incoming.resume();
      const body = JSON.stringify({ error: "injected fault", retryable: fault.status >= 500 });
      outgoing.writeHead(fault.status, { "content-type": "application/json", "retry-after": "1" }).end(body);
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => proxy.bodies.push(Buffer.concat(chunks).toString("utf8")));
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", (error) => {
      outgoing
        .writeHead(502, { "content-type": "application/json" })
        .end(JSON.stringify({ error: error.message }));
    });
    incoming.pipe(forwarded);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = proxy.stop;
  proxy.stop = async () => {
    server.closeAllConnections();
    await close();
  };
  return proxy;
}
