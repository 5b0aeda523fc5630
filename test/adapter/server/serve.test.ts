import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { ModelLoadError } from "../../../adapter/engine/errors.js";
import type { DecisionServer } from "../../../adapter/server/DecisionServer.js";
import { serve } from "../../../adapter/server/serve.js";
import { FakeEngine } from "../../support/FakeEngine.js";
import { send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, testSettings } from "./serverHarness.js";

describe("serve", () => {
  it("serves until SIGTERM, then finishes in-flight work, disposes the engine and returns 0", async () => {
    const engine = new FakeEngine();
    const signals = new EventEmitter();
    const logger = new CapturingLogger();
    let server!: DecisionServer;
    const ready = new Promise<void>((resolve) => {
      void serve(testSettings(), {
        logger,
        signals,
        loadEngine: async () => engine,
        onReady: (s) => {
          server = s;
          resolve();
        },
      }).then((code) => exit.resolve(code));
    });
    const exit = withResolvers<number>();
    await ready;
    engine.delayMs = 200;
    const inFlight = send(server.address.port, { body: { decision: supportRouteDecision() } });
    // SIGTERM only once the request is in the engine. This used to wait a fixed 50 ms, and on a
    // busy machine the connection was not even accepted by then: closing the listening socket
    // resets the connections still in its backlog, and the client saw "connect ECONNRESET" (what
    // a graceful stop does to a request it never received; the sender retries it). What this
    // test checks is that a request already in flight is finished, so it waits for that.
    await untilOrSettled(() => engine.running > 0, inFlight);
    signals.emit("SIGTERM");
    assert.equal((await inFlight).status, 200);
    assert.equal(await exit.promise, 0);
    assert.equal(engine.disposed, true);
    assert.equal(signals.listenerCount("SIGTERM") + signals.listenerCount("SIGINT"), 0, "listeners removed");
    assert.deepEqual(
      logger.lines.map((line) => line.event).filter((event) => event !== "request"),
      ["listening", "ready", "signal", "stopping", "stopped"],
    );
  });

  it("returns 1 and logs why when the model cannot be loaded", async () => {
    const logger = new CapturingLogger();
    const code = await serve(testSettings(), {
      logger,
      signals: new EventEmitter(),
      loadEngine: async () => {
        throw new ModelLoadError("the file is not a GGUF");
      },
    });
    assert.equal(code, 1);
    const failure = logger.events("startup_failed")[0];
    assert.ok(failure?.error instanceof Error);
    assert.match(failure.error.message, /the file is not a GGUF/);
  });

  it("returns 1 when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const address = blocker.address();
    assert.ok(address !== null && typeof address !== "string");
    try {
      const logger = new CapturingLogger();
      const code = await serve(testSettings({ port: address.port }), {
        logger,
        signals: new EventEmitter(),
        loadEngine: async () => new FakeEngine(),
      });
      assert.equal(code, 1);
      const failure = logger.events("startup_failed")[0];
      assert.ok(failure?.error instanceof Error);
      assert.match(failure.error.message, /EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  it("stops cleanly when the signal comes while the model is still loading", async () => {
    const signals = new EventEmitter();
    const engine = new FakeEngine();
    const loading = withResolvers<void>();
    const logger = new CapturingLogger();
    const exit = serve(testSettings(), {
      logger,
      signals,
      loadEngine: async () => {
        await loading.promise;
        return engine;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    signals.emit("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 20));
    loading.resolve();
    assert.equal(await exit, 0);
    assert.equal(engine.disposed, true, "the engine that arrived late is disposed");
    assert.equal(logger.events("ready").length, 0);
  });
});

/**
 * Resolves once `condition()` holds, checking after each turn of the event loop; or once `work`
 * settles first (its own assertion then reports why it ended).
 */
async function untilOrSettled(condition: () => boolean, work: Promise<unknown>): Promise<void> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!condition() && !settled) await new Promise((resolve) => setTimeout(resolve, 1));
}

function withResolvers<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
