/**
 * The server's lanes on a fake engine: the lane read from `X-Amzn-SageMaker-Custom-Attributes`,
 * bulk calls refused beyond their share with a 503 that names the lane and keeps `Retry-After`, an
 * interactive call admitted past waiting bulk calls and served before them, and the lane in every
 * request and refusal log line.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, it } from "node:test";
import type {
  BatchResult,
  DecisionBatch,
  PreparedBatch,
  ScoreOptions,
} from "../../../adapter/engine/types.js";
import type { ServerConfig } from "../../../adapter/server/config.js";
import { DecisionServer } from "../../../adapter/server/DecisionServer.js";
import { CUSTOM_ATTRIBUTES_HEADER, type Lane, laneAttributeOf } from "../../../contract/lanes/lanes.js";
import { FakeEngine } from "../../support/FakeEngine.js";
import { type SendResult, send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, testSettings } from "./serverHarness.js";

/**
 * A fake engine whose scoring waits while held, and which notes the id of each call it begins; its
 * `prepare` stands for the prompt worker (rendering and tokenizing before admission), noted in
 * `events` in order with each scoring's start and end.
 */
class HeldEngine extends FakeEngine {
  readonly begun: string[] = [];
  readonly events: string[] = [];
  #held: Promise<void> = Promise.resolve();
  #let: () => void = () => undefined;

  hold(): void {
    this.#held = new Promise((resolve) => (this.#let = resolve));
  }

  letGo(): void {
    this.#let();
  }

  override async prepare(batch: DecisionBatch): Promise<PreparedBatch> {
    this.events.push(`prepare ${idsOf(batch)}`);
    return super.prepare(batch);
  }

  override async scoreBatch(batch: DecisionBatch, options: ScoreOptions = {}): Promise<BatchResult> {
    this.begun.push(idsOf(batch));
    this.events.push(`score ${idsOf(batch)}`);
    await this.#held;
    try {
      return await super.scoreBatch(batch, options);
    } finally {
      this.events.push(`scored ${idsOf(batch)}`);
    }
  }
}

function idsOf(batch: DecisionBatch): string {
  return batch.questions.map((question) => question.id).join(",");
}

async function startHeldServer(overrides: Partial<ServerConfig>) {
  const engine = new HeldEngine();
  const logger = new CapturingLogger();
  const server = new DecisionServer({
    settings: testSettings(overrides),
    loadEngine: async () => engine,
    logger,
  });
  const { port } = await server.listen();
  await server.load();
  engine.begun.length = 0;
  engine.events.length = 0;
  return { server, engine, logger, port };
}

/** Waits, a few milliseconds at a time, until `condition` holds (bounded by progress, not a sleep). */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function decide(port: number, id: string, lane?: Lane | string): Promise<SendResult> {
  const headers: Record<string, string> = lane === undefined ? {} : { [CUSTOM_ATTRIBUTES_HEADER]: lane };
  return send(port, { headers, body: { decision: { ...supportRouteDecision(), id } } });
}

describe("DecisionServer lanes", () => {
  it("admits an interactive call past waiting bulk calls, refuses bulk beyond its share, and serves interactive first", async () => {
    const h = await startHeldServer({
      maxInFlight: 1,
      queueDepth: 3,
      interactiveReserve: 1,
      retryAfterSeconds: 2,
    });
    try {
      h.engine.hold();
      const bulk = [decide(h.port, "bulk-0", laneAttributeOf("bulk"))];
      await waitFor(() => h.engine.begun.length === 1, "the first bulk call runs");
      bulk.push(decide(h.port, "bulk-1", `trace=7;${laneAttributeOf("bulk")}`));
      bulk.push(decide(h.port, "bulk-2", laneAttributeOf("bulk")));
      await waitFor(() => h.server.admission.bulk.waiting === 2, "two bulk calls wait");

      const refused = await decide(h.port, "bulk-3", laneAttributeOf("bulk"));
      const interactive = decide(h.port, "incident", laneAttributeOf("interactive"));
      await waitFor(() => h.server.admission.interactive.waiting === 1, "the interactive call waits");
      h.engine.letGo();
      const answers = await Promise.all([interactive, ...bulk]);

      assert.equal(refused.status, 503);
      assert.equal(refused.headers["retry-after"], "2");
      assert.equal(refused.json.retry_after_seconds, 2);
      assert.match(refused.json.error, /at capacity for bulk calls .*kept for interactive calls/);
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200, 200, 200],
      );
      assert.deepEqual(h.engine.begun, ["bulk-0", "incident", "bulk-1", "bulk-2"]);
    } finally {
      h.engine.letGo();
      await h.server.close();
    }
    const refusals = h.logger.events("requests_refused");
    assert.deepEqual(
      refusals.map((line) => [line.lane, line.count]),
      [["bulk", 1]],
    );
    const lanes = h.logger
      .events("request")
      .filter((line) => line.path === "/invocations")
      .map((line) => line.lane)
      .sort();
    assert.deepEqual(lanes, ["bulk", "bulk", "bulk", "interactive"]);
  });

  it("prepares no bulk call while an interactive call is admitted, and prepares it once that call is answered", async () => {
    const h = await startHeldServer({ maxInFlight: 1, queueDepth: 3, interactiveReserve: 1 });
    try {
      h.engine.hold();
      const interactive = decide(h.port, "incident", laneAttributeOf("interactive"));
      await waitFor(() => h.engine.begun.length === 1, "the interactive call is being evaluated");
      const bulk = decide(h.port, "bulk-0", laneAttributeOf("bulk"));
      await waitFor(
        () => h.server.preAdmission.bulk.deferred === 1 || h.engine.events.includes("prepare bulk-0"),
        "the bulk call's body is read and waits for its preparation, or is prepared",
      );
      assert.deepEqual(
        h.engine.events,
        ["prepare incident", "score incident"],
        "no bulk preparation beside the interactive evaluation",
      );
      assert.equal(h.server.preAdmission.bulk.waiting, 1);

      h.engine.letGo();
      const answers = await Promise.all([interactive, bulk]);
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200],
      );
      assert.deepEqual(h.engine.events, [
        "prepare incident",
        "score incident",
        "scored incident",
        "prepare bulk-0",
        "score bulk-0",
        "scored bulk-0",
      ]);
      assert.deepEqual(h.server.preAdmission.bulk, {
        held: 0,
        waiting: 0,
        preparing: 0,
        prepared: 1,
        dropped: 0,
        refused: 0,
        deferred: 1,
      });
    } finally {
      h.engine.letGo();
      await h.server.close();
    }
  });

  it("never prepares a held bulk call whose client hung up while an interactive call was evaluated", async () => {
    const h = await startHeldServer({ maxInFlight: 1, queueDepth: 3, interactiveReserve: 1 });
    try {
      h.engine.hold();
      const interactive = decide(h.port, "incident", laneAttributeOf("interactive"));
      await waitFor(() => h.engine.begun.length === 1, "the interactive call is being evaluated");
      const gone = new AbortController();
      const bulk = send(h.port, {
        headers: { [CUSTOM_ATTRIBUTES_HEADER]: laneAttributeOf("bulk") },
        body: { decision: { ...supportRouteDecision(), id: "bulk-gone" } },
        signal: gone.signal,
      }).catch((error: unknown) => error);
      await waitFor(
        () => h.server.preAdmission.bulk.deferred === 1 || h.engine.events.includes("prepare bulk-gone"),
        "the bulk call waits for its preparation, or is prepared",
      );
      gone.abort(new Error("the bulk client hangs up"));
      await bulk;
      await waitFor(() => h.server.preAdmission.bulk.dropped === 1, "the hung-up bulk call is dropped");
      h.engine.letGo();
      assert.equal((await interactive).status, 200);
      await waitFor(() => h.server.preAdmission.bulk.held === 0, "the bulk place is given back");
      assert.deepEqual(h.engine.events, ["prepare incident", "score incident", "scored incident"]);
      assert.deepEqual(h.server.evaluations.bulk, { started: 0, abandoned: 0 });
    } finally {
      h.engine.letGo();
      await h.server.close();
    }
  });

  it("answers a call whose deadline passes while it still waits with a busy 503, not a 504", async () => {
    // The deadline is generous so that reading and preparing the body never meet it, even on a busy
    // machine; the engine is held, so the waiting call cannot start before it passes.
    const h = await startHeldServer({
      maxInFlight: 1,
      queueDepth: 2,
      interactiveReserve: 1,
      retryAfterSeconds: 3,
      requestTimeoutMs: 2_000,
    });
    let running: Promise<SendResult> | undefined;
    try {
      h.engine.hold();
      running = decide(h.port, "bulk-0", laneAttributeOf("bulk"));
      await waitFor(() => h.engine.begun.length === 1, "the first bulk call runs");
      const waited = await decide(h.port, "bulk-1", laneAttributeOf("bulk"));

      assert.equal(waited.status, 503, JSON.stringify(waited.json));
      assert.equal(waited.headers["retry-after"], "3");
      assert.equal(waited.json.retryable, true);
      assert.match(
        waited.json.error,
        /waited 2000 ms for a running slot without starting .*interactive calls go first/,
      );
      assert.deepEqual(h.engine.begun, ["bulk-0"], "the waiting call never reached the engine");
    } finally {
      h.engine.letGo();
      await running;
      await h.server.close();
    }
    assert.deepEqual(
      h.logger.events("requests_refused").map((line) => [line.lane, line.count]),
      [["bulk", 1]],
    );
  });

  it("treats a call without the header, or with an unknown or malformed lane, as interactive", async () => {
    // Bulk may only run (1 place); the 4 waiting places are interactive's alone.
    const h = await startHeldServer({ maxInFlight: 1, queueDepth: 4, interactiveReserve: 4 });
    try {
      h.engine.hold();
      const running = decide(h.port, "running", laneAttributeOf("bulk"));
      await waitFor(() => h.engine.begun.length === 1, "the bulk call runs");
      const others = [undefined, "lane=urgent", "lane", ";;==,,lane=;x"].map((attributes, i) =>
        decide(h.port, `r${i}`, attributes),
      );
      await waitFor(() => h.server.admission.interactive.waiting === 4, "the four calls wait as interactive");
      h.engine.letGo();
      const answers = await Promise.all([running, ...others]);

      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200, 200, 200, 200],
      );
    } finally {
      h.engine.letGo();
      await h.server.close();
    }
    const lanes = h.logger
      .events("request")
      .filter((line) => line.path === "/invocations")
      .map((line) => line.lane)
      .sort();
    assert.deepEqual(lanes, ["bulk", "interactive", "interactive", "interactive", "interactive"]);
  });

  it("gives back a bulk call's place when the bodies being read leave no room for its body", async () => {
    // prepare: two bulk places in all; one body holds 200 of the 1000 bytes the server reads at once
    const h = await startHeldServer({
      maxInFlight: 1,
      queueDepth: 1,
      interactiveReserve: 0,
      maxBodyReads: 1,
      maxBodyBytes: 1000,
    });
    const slow = request({
      host: "127.0.0.1",
      port: h.port,
      method: "POST",
      path: "/invocations",
      headers: { "content-type": "application/json", "content-length": 900 },
    });
    slow.on("error", () => undefined);
    try {
      slow.write("x".repeat(200));
      await waitFor(() => h.server.preAdmission.interactive.held === 1, "the slow body is being read");
      const bulk = { [CUSTOM_ATTRIBUTES_HEADER]: laneAttributeOf("bulk") };

      // act: two bulk calls whose 900 bytes do not fit beside it, then one once it has gone
      const refused = await Promise.all(
        [1, 2].map(() =>
          send(h.port, { headers: { ...bulk, "content-length": 900 }, body: "y".repeat(900) }),
        ),
      );
      slow.destroy();
      await waitFor(() => h.server.preAdmission.interactive.held === 0, "the slow body is dropped");
      const after = await decide(h.port, "after", laneAttributeOf("bulk"));

      // assert
      assert.deepEqual(
        refused.map((response) => response.status),
        [503, 503],
      );
      assert.equal(after.status, 200);
      assert.equal(h.server.preAdmission.bulk.held, 0);
    } finally {
      slow.destroy();
      await h.server.close();
    }
  });

  it("logs the interactive reserve when ready and each lane's admissions when stopping", async () => {
    const h = await startHeldServer({ maxInFlight: 2, queueDepth: 4, interactiveReserve: 3 });
    await h.server.close();
    const [ready] = h.logger.events("ready");
    assert.ok(ready, "a ready line");
    assert.equal((ready.limits as Record<string, unknown>).interactive_reserve, 3);
    const [stopping] = h.logger.events("stopping");
    assert.deepEqual(stopping?.lanes, {
      interactive: { admitted: 0, running: 0, waiting: 0 },
      bulk: { admitted: 0, running: 0, waiting: 0 },
    });
  });

  it("refuses to start with an interactive reserve deeper than the queue", () => {
    assert.throws(
      () =>
        new DecisionServer({
          settings: testSettings({ queueDepth: 1, interactiveReserve: 2 }),
          loadEngine: async () => new FakeEngine(),
          logger: new CapturingLogger(),
        }),
      /interactiveReserve must be an integer from 0 to queueDepth \(1\), got 2/,
    );
  });
});
