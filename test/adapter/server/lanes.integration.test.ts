/**
 * Lanes at the real adapter (issue 35): `serve()` on the generated tiny-qwen3 GGUF, over loopback.
 * While bulk calls fill the bulk share — one running, the others waiting — a bulk call more is
 * refused with 503, and an interactive call is admitted into the reserved places and answered
 * before the bulk calls that were waiting when it arrived. Order is asserted, never time: the
 * running call is a long bulk chat completion the test ends itself (by disconnecting) once
 * everything it needs is waiting.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import type { DecisionServer } from "../../../adapter/server/DecisionServer.js";
import { serve } from "../../../adapter/server/serve.js";
import { CUSTOM_ATTRIBUTES_HEADER, type Lane, laneAttributeOf } from "../../../contract/lanes/lanes.js";
import { type SendOptions, type SendResult, send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, testSettings } from "./serverHarness.js";

/** Waits, a few milliseconds at a time, until `condition` holds (bounded by progress, not a sleep). */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("lanes at the adapter on tiny-qwen3 (integration)", () => {
  let folder: string;
  let server: DecisionServer;
  const signals = new EventEmitter();
  const logger = new CapturingLogger();
  let exitCode: Promise<number>;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "decision-lanes-"));
    const modelDir = join(folder, "model");
    await mkdir(modelDir, { recursive: true });
    const gguf = join(modelDir, "tiny-qwen3.gguf");
    await copyFile(await ensureGeneratedModel("tiny-qwen3"), gguf);
    await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42" });
    const ready = new Promise<DecisionServer | undefined>((resolve) => {
      exitCode = serve(
        // 1 running + 4 waiting, 2 of them interactive's alone: bulk may hold 3 places.
        testSettings({ modelDir, threads: 2, maxInFlight: 1, queueDepth: 4, interactiveReserve: 2 }),
        { logger, signals, onReady: resolve },
      );
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

  /** Sends `options` in `lane`, noting the name when the answer arrives. */
  function call(name: string, lane: Lane, options: SendOptions, answered: string[]): Promise<SendResult> {
    const headers = {
      ...options.headers,
      [CUSTOM_ATTRIBUTES_HEADER]: `trace=${name};${laneAttributeOf(lane)}`,
    };
    return send(server.address.port, { ...options, headers }).then((result) => {
      answered.push(name);
      return result;
    });
  }

  function decision(id: string): SendOptions {
    return { body: { decision: { ...supportRouteDecision(), id } } };
  }

  it("admits an interactive call while bulk calls fill their share, and answers it before the waiting bulk calls", async () => {
    const answered: string[] = [];
    const holder = new AbortController();
    // A long generation holds the only running slot until the test disconnects it.
    const running = call(
      "bulk-running",
      "bulk",
      {
        path: "/v1/chat/completions",
        body: { messages: [{ role: "user", content: "Tell a long story." }], max_tokens: 512 },
        signal: holder.signal,
      },
      answered,
    ).catch((error: unknown) => error);
    await waitFor(() => server.admission.bulk.running === 1, "the bulk generation runs");
    const waitingBulk = [call("bulk-1", "bulk", decision("bulk-1"), answered)];
    await waitFor(() => server.admission.bulk.waiting === 1, "the first bulk decision waits");
    waitingBulk.push(call("bulk-2", "bulk", decision("bulk-2"), answered));
    await waitFor(() => server.admission.bulk.waiting === 2, "both bulk decisions wait");

    const refused = await call("bulk-3", "bulk", decision("bulk-3"), answered);
    const interactive = call("incident", "interactive", decision("incident"), answered);
    await waitFor(() => server.admission.interactive.waiting === 1, "the interactive decision waits");
    assert.deepEqual(server.admission.bulk, { admitted: 3, running: 1, waiting: 2 });
    holder.abort(new Error("the test ends the generation"));
    const [incident, ...bulk] = await Promise.all([interactive, ...waitingBulk]);
    await running;

    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.headers["retry-after"], "1");
    assert.match(refused.json.error, /at capacity for bulk calls/);
    assert.equal(incident.status, 200, incident.text);
    assert.equal(incident.json.result.id, "incident");
    assert.deepEqual(
      bulk.map((answer) => [answer.status, answer.json.result.id]),
      [
        [200, "bulk-1"],
        [200, "bulk-2"],
      ],
    );
    assert.deepEqual(answered.slice(-3), ["incident", "bulk-1", "bulk-2"], `answered in order ${answered}`);
    const served = logger
      .events("request")
      .filter((line) => line.status === 200 && line.path === "/invocations")
      .map((line) => line.lane);
    assert.deepEqual(
      served,
      ["interactive", "bulk", "bulk"],
      "the server logged them in that order, by lane",
    );
    assert.deepEqual(
      logger.events("requests_refused").map((line) => [line.lane, line.count]),
      [["bulk", 1]],
    );
  });
});
