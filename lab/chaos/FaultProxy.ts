import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { CUSTOM_ATTRIBUTES_HEADER, type Lane, laneOfAttributes } from "../../contract/lanes/lanes.js";
import type { SeededRandom } from "../../core/common/SeededRandom.js";

/** What the proxy does to the calls it receives while a fault is set. */
export type ProxyFault =
  /** Answer `share` of the calls with `status` (503: the adapter is busy) without forwarding them. */
  | { kind: "error"; status: number; share: number }
  /** Forward `share` of the calls but hold each answer back for a delay drawn from `delayMs`. */
  | { kind: "slow"; share: number; delayMs: readonly [min: number, max: number] };

/** One forwarded call, as {@link FaultProxyOptions.onExchange} sees it. */
export interface ProxyExchange {
  /** The upstream status (502 when the target could not be reached). */
  status: number;
  /** From the request's arrival to the upstream answer's end, before any injected delay. */
  upstreamMs: number;
  /** The request's body. */
  request: string;
  /** The upstream answer's body. */
  body: string;
}

/** Counters of the calls of one lane. */
export interface FaultProxyLaneStats {
  requests: number;
  /** Calls answered with the injected error status. */
  injectedErrors: number;
  /** Calls whose answer was held back. */
  slowed: number;
  /** Forwarded calls the target did not answer (refused, reset): answered 502. */
  upstreamFailures: number;
}

/** Counters since start. */
export interface FaultProxyStats extends FaultProxyLaneStats {
  forwarded: number;
  /**
   * The same counters per lane, as each call names it in `X-Amzn-SageMaker-Custom-Attributes`
   * (`lane=bulk`); `none` for calls that name no lane.
   */
  byLane: Record<Lane | "none", FaultProxyLaneStats>;
}

/** Options of {@link FaultProxy.start}. */
export interface FaultProxyOptions {
  /** The adapter's base URL, `http://127.0.0.1:<port>`. */
  target: string;
  /** Decides which calls a fault hits and how long a slow answer waits. */
  random: SeededRandom;
  /** Called after each forwarded call (the bench reads `usage` from the bodies). Default none. */
  onExchange?: (exchange: ProxyExchange) => void;
}

/**
 * A fault-injecting HTTP proxy on 127.0.0.1 between the SageMaker gateway and the adapter, so the
 * faults come from the container's side as they would on SageMaker: a share of calls answered 503,
 * answers held back until near (or past) the caller's deadline, and — while the adapter process is
 * down or restarting — refused connections answered 502. The target can be changed at run time (an
 * adapter restarted on a new port). No package does this on loopback, hence by hand. (A proxy of
 * this kind for the tests lives in test/support/FaultProxy.ts; production code cannot import test/.)
 *
 * @example
 * const proxy = await FaultProxy.start({ target: adapter.url, random: new SeededRandom(1) });
 * gateway.setEndpoint("decisions", proxy.url);
 * proxy.inject({ kind: "error", status: 503, share: 0.7 });
 */
export class FaultProxy {
  readonly url: string;
  readonly #server: Server;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 64 });
  readonly #options: FaultProxyOptions;
  #target: URL;
  #fault: ProxyFault | undefined;
  readonly #stats: FaultProxyStats = {
    requests: 0,
    forwarded: 0,
    injectedErrors: 0,
    slowed: 0,
    upstreamFailures: 0,
    byLane: { interactive: emptyLaneStats(), bulk: emptyLaneStats(), none: emptyLaneStats() },
  };

  private constructor(server: Server, url: string, options: FaultProxyOptions) {
    this.#server = server;
    this.url = url;
    this.#options = options;
    this.#target = new URL(options.target);
  }

  /** Starts the proxy on a free port of 127.0.0.1. */
  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const handlers: { handle?: (incoming: IncomingMessage, outgoing: ServerResponse) => void } = {};
    const server = createServer((incoming, outgoing) => handlers.handle?.(incoming, outgoing));
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const proxy = new FaultProxy(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      options,
    );
    handlers.handle = (incoming, outgoing) => proxy.#handle(incoming, outgoing);
    return proxy;
  }

  /** Points the proxy at another adapter (one restarted on a new port). */
  setTarget(target: string): void {
    this.#target = new URL(target);
    // Sockets to the old target are dead or about to be: do not reuse them.
    this.#agent.destroy();
  }

  /** Sets the fault (undefined: forward everything unchanged). */
  inject(fault: ProxyFault | undefined): void {
    this.#fault = fault;
  }

  /** A copy of the counters. */
  stats(): FaultProxyStats {
    const { byLane } = this.#stats;
    return {
      ...this.#stats,
      byLane: { interactive: { ...byLane.interactive }, bulk: { ...byLane.bulk }, none: { ...byLane.none } },
    };
  }

  /** Closes the listener and every connection. */
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    this.#agent.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(incoming: IncomingMessage, outgoing: ServerResponse): void {
    const stats = this.#stats;
    const header = incoming.headers[CUSTOM_ATTRIBUTES_HEADER];
    const laneStats =
      stats.byLane[laneOfAttributes(Array.isArray(header) ? header.join(",") : header) ?? "none"];
    const { random } = this.#options;
    stats.requests += 1;
    laneStats.requests += 1;
    const fault = this.#fault;
    if (fault?.kind === "error" && random.chance(fault.share)) {
      stats.injectedErrors += 1;
      laneStats.injectedErrors += 1;
      incoming.resume();
      answer(outgoing, fault.status, { "retry-after": "1" }, JSON.stringify({ error: "injected fault" }));
      return;
    }
    const delayMs =
      fault?.kind === "slow" && random.chance(fault.share) ? random.between(...fault.delayMs) : 0;
    if (delayMs > 0) {
      stats.slowed += 1;
      laneStats.slowed += 1;
    }
    stats.forwarded += 1;
    const started = performance.now();
    const requestChunks: Buffer[] = [];
    if (this.#options.onExchange !== undefined)
      incoming.on("data", (chunk: Buffer) => requestChunks.push(chunk));
    const requestText = () => Buffer.concat(requestChunks).toString("utf8");
    const upstream = request(
      {
        host: this.#target.hostname,
        port: this.#target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent: this.#agent,
      },
      (reply) => {
        const chunks: Buffer[] = [];
        reply.on("data", (chunk: Buffer) => chunks.push(chunk));
        reply.on("error", () => fail());
        reply.on("end", () => {
          const body = Buffer.concat(chunks);
          const status = reply.statusCode ?? 502;
          this.#options.onExchange?.({
            status,
            upstreamMs: performance.now() - started,
            request: requestText(),
            body: body.toString("utf8"),
          });
          const headers = { ...endToEnd(reply.headers), "content-length": String(body.length) };
          const send = () => answer(outgoing, status, headers, body);
          if (delayMs > 0) setTimeout(send, delayMs);
          else send();
        });
      },
    );
    let failed = false;
    const fail = (): void => {
      if (failed) return;
      failed = true;
      stats.upstreamFailures += 1;
      laneStats.upstreamFailures += 1;
      this.#options.onExchange?.({
        status: 502,
        upstreamMs: performance.now() - started,
        request: requestText(),
        body: "",
      });
      answer(outgoing, 502, {}, JSON.stringify({ error: "the adapter could not be reached" }));
    };
    upstream.on("error", fail);
    incoming.pipe(upstream);
  }
}

function emptyLaneStats(): FaultProxyLaneStats {
  return { requests: 0, injectedErrors: 0, slowed: 0, upstreamFailures: 0 };
}

/** Hop-by-hop headers belong to one connection, not to the answer the proxy passes on. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

function endToEnd(headers: IncomingMessage["headers"]): Record<string, string | string[] | undefined> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** Writes an answer unless the caller has gone (it gave up at its deadline). */
function answer(
  outgoing: ServerResponse,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string | Buffer,
): void {
  if (outgoing.destroyed || outgoing.headersSent) return;
  const clean = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined));
  outgoing.writeHead(status, { "content-type": "application/json", ...clean });
  outgoing.end(body);
}
