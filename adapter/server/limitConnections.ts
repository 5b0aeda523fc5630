import type { Server } from "node:http";
import type { Socket } from "node:net";

/** Bounds on the connections of an HTTP server (see {@link limitConnections}). */
export interface ConnectionLimits {
  /** Most connections open at once; Node drops those beyond it as they arrive. */
  maxConnections: number;
  /** Most connections open at once from one remote address; those beyond are closed as they arrive. */
  maxConnectionsPerAddress: number;
  /**
   * Most time a client may take to send a request's headers (Node's `server.headersTimeout`; Node
   * answers 408 and closes the connection past it, checked every `connectionsCheckingInterval`).
   */
  headersTimeoutMs: number;
}

/**
 * Bounds how many connections a server holds, in all and from one remote address, and how long a
 * client may take to send a request's headers: a client that
 * opens connections and sends nothing (or sends slowly) can hold at most
 * `maxConnectionsPerAddress` of them, and the server's sockets never grow past `maxConnections`.
 * A connection over a bound is closed at once, before anything is read from it (as Node's own
 * `server.maxConnections` does). How long a connection may be held once its headers are in is
 * bounded by the server's body pace and deadline, and between requests by the keep-alive timeout.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = Math.min(limits.headersTimeoutMs, server.requestTimeout);
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
