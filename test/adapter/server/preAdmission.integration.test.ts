/**
 * Work before admission at the real adapter (issue 43, item 1): `serve()` on the generated
 * tiny-qwen3 GGUF, over loopback. Bulk senders whose clients hang up, and bulk requests that get
 * 400 after their 120 KB states are tokenized, must not put their work ahead of an interactive
 * call: a request whose client has gone is never parsed or tokenized, an interactive request is
 * prepared before bulk ones queued ahead of it, and a lane's places before the gate are bounded.
 *
 * Order and counts are asserted, never time: the engine is the real one, wrapped only to note
 * which batches it is asked to prepare and score, and to hold the first bulk preparation until the
 * test has queued everything behind it.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { DecisionEngine } from "../../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import type { DecisionServer } from "../../../adapter/server/DecisionServer.js";
import { loadServedEngine } from "../../../adapter/server/loadServedEngine.js";
import { serve } from "../../../adapter/server/serve.js";
import { CUSTOM_ATTRIBUTES_HEADER, type Lane, laneAttributeOf } from "../../../contract/lanes/lanes.js";
import { type SendResult, send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, testSettings } from "./serverHarness.js";

/** Waits, a few milliseconds at a time, until `condition` holds (bounded by progress, not a sleep). */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** About 120 KB of ordinary text: under the state byte bound, far over the prompt's token limit. */
const LARGE_STATE = "The customer writes again about the invoice, the refund and the account. ".repeat(1700);

/** Notes the batches the engine prepares and scores (by their first question's id); holds some. */
class EngineWatch {
  readonly prepared: string[] = [];
  readonly scored: string[] = [];
  readonly #holds = new Map<string, Promise<void>>();
  readonly #releases = new Map<string, () => void>();

  /** The next preparation of the batch `id` (its scoring: `score:<id>`) waits until {@link release}. */
  hold(id: string): void {
    this.#holds.set(id, new Promise<void>((resolve) => this.#releases.set(id, resolve)));
  }

  release(id: string): void {
    this.#releases.get(id)?.();
  }

  /** `engine`, with `prepare` and `scoreBatch` noted (and held) here. */
  wrap(engine: DecisionEngine): DecisionEngine {
    return new Proxy(engine, {
      get: (target, key) => {
        if (key === "prepare") {
          return async (...args: Parameters<DecisionEngine["prepare"]>) => {
            const id = args[0].questions[0]?.id ?? "";
            this.prepared.push(id);
            await this.#holds.get(id);
            return target.prepare(...args);
          };
        }
        if (key === "scoreBatch") {
          return async (...args: Parameters<DecisionEngine["scoreBatch"]>) => {
            const id = args[0].questions[0]?.id ?? "";
            this.scored.push(id);
            await this.#holds.get(`score:${id}`);
            return target.scoreBatch(...args);
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}

describe("work before admission at the adapter on tiny-qwen3 (integration)", () => {
  let folder: string;
  let server: DecisionServer;
  const signals = new EventEmitter();
  const logger = new CapturingLogger();
  const watch = new EngineWatch();
  let exitCode: Promise<number>;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "decision-pre-admission-"));
    const modelDir = join(folder, "model");
    await mkdir(modelDir, { recursive: true });
    const gguf = join(modelDir, "tiny-qwen3.gguf");
    await copyFile(await ensureGeneratedModel("tiny-qwen3"), gguf);
    await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42" });
    // 1 running + 8 waiting, 2 of them interactive's alone: bulk may hold 7 places, before the
    // gate and in it together. A 120 KB state passes the byte bound (4096 × 32) and is tokenized.
    const settings = testSettings({
      modelDir,
      threads: 2,
      contextSize: 4096,
      maxInFlight: 1,
      queueDepth: 8,
      interactiveReserve: 2,
      maxStateBytesPerToken: 32,
    });
    const ready = new Promise<DecisionServer | undefined>((resolve) => {
      exitCode = serve(settings, {
        logger,
        signals,
        onReady: resolve,
        loadEngine: async (signal) => watch.wrap(await loadServedEngine(settings, logger, signal)),
      });
      void exitCode.then(() => resolve(undefined));
    });
    const started = await ready;
    assert.ok(started, `the server did not start: ${JSON.stringify(logger.events("startup_failed"))}`);
    server = started;
  });

  after(async () => {
    signals.emit("SIGTERM");
    assert.equal(await exitCode, 0);
    await rm(folder, { recursive: true, force: true });
  });

  function call(id: string, lane: Lane, state: string, signal?: AbortSignal): Promise<SendResult> {
    return send(server.address.port, {
      headers: { [CUSTOM_ATTRIBUTES_HEADER]: `trace=${id};${laneAttributeOf(lane)}` },
      body: { decision: { ...supportRouteDecision(), id, state } },
      ...(signal !== undefined ? { signal } : {}),
    });
  }

  function answered(status: number): number {
    return logger.events("request").filter((line) => line.status === status).length;
  }

  it("drops the queued work of bulk clients that hung up, refuses bulk beyond its places, and prepares the interactive call next", async () => {
    const preparedBefore = watch.prepared.length;
    watch.hold("bulk-hold");
    const holding = call("bulk-hold", "bulk", "Customer says: hello.");
    await waitFor(() => watch.prepared.includes("bulk-hold"), "the first bulk call is being prepared");

    const gone = Array.from({ length: 6 }, (_, index) => {
      const controller = new AbortController();
      const id = `bulk-gone-${index}`;
      const answer = call(id, "bulk", LARGE_STATE, controller.signal).catch((error: unknown) => error);
      return { controller, answer };
    });
    await waitFor(
      () => server.preAdmission?.bulk.waiting === 6 || watch.prepared.length >= preparedBefore + 7,
      "six bulk calls wait for their turn",
    );
    const over = await call("bulk-over", "bulk", LARGE_STATE);

    const closedBefore = answered(499);
    for (const { controller } of gone) controller.abort(new Error("the client hangs up"));
    await Promise.all(gone.map(({ answer }) => answer));
    await waitFor(() => answered(499) >= closedBefore + 6, "the server noticed the six hang-ups");

    const interactive = call("incident", "interactive", "Checkout fails for every customer.");
    await waitFor(
      () => server.preAdmission?.interactive.waiting === 1 || watch.prepared.includes("incident"),
      "the interactive call waits for its turn",
    );
    watch.release("bulk-hold");
    const [incident, held] = await Promise.all([interactive, holding]);

    assert.equal(over.status, 503, over.text);
    assert.equal(over.headers["retry-after"], "1");
    assert.match(over.json.error, /at capacity for bulk calls/);
    assert.equal(incident.status, 200, incident.text);
    assert.equal(held.status, 200, held.text);
    assert.deepEqual(
      watch.prepared.slice(preparedBefore),
      ["bulk-hold", "incident"],
      "nothing was prepared for the clients that had gone, nor for the refused call",
    );
    assert.deepEqual(server.preAdmission.bulk, {
      held: 0,
      waiting: 0,
      preparing: 0,
      prepared: 1,
      dropped: 6,
      refused: 1,
      deferred: 0,
    });
    assert.deepEqual(server.evaluations.bulk, { started: 1, abandoned: 0 });
    assert.equal(server.evaluations.interactive.started, 1);
  });

  it("prepares an interactive call before the queued bulk calls that end in 400", async () => {
    const preparedBefore = watch.prepared.length;
    watch.hold("bulk-hold-2");
    const holding = call("bulk-hold-2", "bulk", "Customer says: hello again.");
    await waitFor(() => watch.prepared.includes("bulk-hold-2"), "the first bulk call is being prepared");
    const refused = Array.from({ length: 6 }, (_, index) => call(`bulk-400-${index}`, "bulk", LARGE_STATE));
    await waitFor(
      () => server.preAdmission?.bulk.waiting === 6 || watch.prepared.length >= preparedBefore + 7,
      "six bulk calls wait for their turn",
    );
    const interactive = call("incident-2", "interactive", "Checkout fails again.");
    await waitFor(
      () => server.preAdmission?.interactive.waiting === 1 || watch.prepared.includes("incident-2"),
      "the interactive call waits for its turn",
    );
    watch.release("bulk-hold-2");
    const [incident, held, ...bulk] = await Promise.all([interactive, holding, ...refused]);

    assert.equal(incident.status, 200, incident.text);
    assert.equal(held.status, 200, held.text);
    for (const answer of bulk) {
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.text, /tokens/);
    }
    assert.deepEqual(
      watch.prepared.slice(preparedBefore),
      ["bulk-hold-2", "incident-2", ...bulk.map((_, index) => `bulk-400-${index}`)],
      "the interactive call was prepared before every bulk call queued ahead of it",
    );
    assert.deepEqual(watch.scored.slice(-2), ["bulk-hold-2", "incident-2"]);
  });

  it("prepares no bulk call while an interactive call is evaluated, then the held ones in turn", async () => {
    // prepare: the interactive call's evaluation is held once it has started
    const preparedBefore = watch.prepared.length;
    const deferredBefore = server.preAdmission.bulk.deferred;
    watch.hold("score:incident-3");
    const interactive = call("incident-3", "interactive", "Checkout fails once more.");
    await waitFor(() => watch.scored.includes("incident-3"), "the interactive call is being evaluated");

    // act: three bulk calls with 120 KB states arrive meanwhile
    const bulk = Array.from({ length: 3 }, (_, index) => call(`bulk-late-${index}`, "bulk", LARGE_STATE));
    await waitFor(
      () =>
        server.preAdmission.bulk.waiting === 3 ||
        watch.prepared.slice(preparedBefore).some((id) => id.startsWith("bulk-late")),
      "the three bulk calls wait for their turn, or one is prepared",
    );
    const preparedMeanwhile = watch.prepared.slice(preparedBefore);
    watch.release("score:incident-3");
    const [incident, ...refused] = await Promise.all([interactive, ...bulk]);

    // assert
    assert.deepEqual(preparedMeanwhile, ["incident-3"], "no bulk state tokenized beside the evaluation");
    assert.equal(incident.status, 200, incident.text);
    for (const answer of refused) assert.equal(answer.status, 400, answer.text);
    const prepared = watch.prepared.slice(preparedBefore);
    assert.equal(prepared[0], "incident-3");
    assert.deepEqual(prepared.slice(1).sort(), ["bulk-late-0", "bulk-late-1", "bulk-late-2"]);
    assert.equal(server.preAdmission.bulk.deferred - deferredBefore, 3);
  });
});
