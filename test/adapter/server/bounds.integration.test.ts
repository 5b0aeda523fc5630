/**
 * Bad input cannot stall the real server (issue 19): requests whose prompts would take seconds to
 * render and tokenize are refused by cheap bounds while `/ping` stays answered, and slow senders
 * hold a body read, never an admission. `serve()` on the generated tiny-qwen3 GGUF, over loopback.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import { serve } from "../../../adapter/server/serve.js";
import { type SendResult, send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, testSettings } from "./serverHarness.js";

/** Sends `/ping` while `bad` is in flight; says which finished first and how long /ping took. */
async function pingDuring(port: number, bad: Promise<SendResult>) {
  let badDone = false;
  const refused = bad.then((result) => {
    badDone = true;
    return result;
  });
  const started = performance.now();
  const ping = await send(port, { method: "GET", path: "/ping" });
  const pingMs = performance.now() - started;
  const pingBeforeBad = !badDone;
  return { ping, pingMs, pingBeforeBad, refused: await refused };
}

describe("bounded work on tiny-qwen3 (integration)", () => {
  let folder: string;
  let port: number;
  const signals = new EventEmitter();
  const logger = new CapturingLogger();
  let exitCode: Promise<number>;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "decision-bounds-"));
    const modelDir = join(folder, "model");
    await mkdir(modelDir, { recursive: true });
    const gguf = join(modelDir, "tiny-qwen3.gguf");
    await copyFile(await ensureGeneratedModel("tiny-qwen3"), gguf);
    await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42" });
    const ready = new Promise<number>((resolve) => {
      exitCode = serve(
        testSettings({ modelDir, threads: 2, maxInFlight: 1, queueDepth: 8, bodyTimeoutSeconds: 2 }),
        { logger, signals, onReady: (server) => resolve(server.address.port) },
      );
      void exitCode.then((code) => resolve(-code));
    });
    port = await ready;
    assert.ok(port > 0, `the server did not start: ${JSON.stringify(logger.events("startup_failed"))}`);
  });

  after(async () => {
    signals.emit("SIGTERM");
    assert.equal(await exitCode, 0);
    await rm(folder, { recursive: true, force: true });
  });

  it("refuses 3 decisions × 255 options × 255 rotations at once, /ping answered meanwhile", async () => {
    const options = Array.from({ length: 255 }, (_, i) => ({
      id: `o${i}`,
      description: `option number ${i} of the list, described`,
    }));
    const body = {
      decisions: [0, 1, 2].map((n) => ({
        id: `d${n}`,
        state: "a short state",
        question: "Which one?",
        options,
        debias: "cyclic",
        debias_rotations: 255,
      })),
    };
    assert.ok(JSON.stringify(body).length > 40_000, "the issue's ~51 KB request");

    const { ping, pingMs, pingBeforeBad, refused } = await pingDuring(
      port,
      send(port, { path: "/invocations", body }),
    );

    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /options × rotations|over the limit/);
    assert.equal(ping.status, 200);
    // Timing on a busy machine is reported, not asserted beyond "answered before the bad request
    // finished or well within a second": the stall this replaces was 23 s.
    assert.ok(pingBeforeBad || pingMs < 1000, `/ping took ${pingMs.toFixed(1)} ms`);
    console.log(`/ping answered in ${pingMs.toFixed(1)} ms beside the 255×255×3 request`);
  });

  it("refuses a 4 MB state before tokenizing it, /ping answered meanwhile", async () => {
    const state = "lorem ipsum dolor sit amet ".repeat(150_000);
    const body = { decision: { ...supportRouteDecision(), state } };
    assert.ok(state.length > 4_000_000);

    const { ping, pingMs, pingBeforeBad, refused } = await pingDuring(
      port,
      send(port, { path: "/invocations", body }),
    );

    assert.ok(refused.status === 400 || refused.status === 413, refused.text);
    if (refused.status === 400) assert.match(refused.text, /the state is \d+ bytes, over the \d+ bytes/);
    assert.equal(ping.status, 200);
    assert.ok(pingBeforeBad || pingMs < 1000, `/ping took ${pingMs.toFixed(1)} ms`);
    console.log(`/ping answered in ${pingMs.toFixed(1)} ms beside the 4 MB state (${refused.status})`);
  });

  it("serves a normal request while 9 slow senders are connected, and answers them 408", async () => {
    const sockets: Socket[] = [];
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 9; i += 1) {
      const socket = connect(port, "127.0.0.1");
      sockets.push(socket);
      answers.push(
        new Promise((resolve) => {
          let text = "";
          socket.on("data", (chunk) => (text += chunk.toString()));
          socket.on("close", () => resolve(text));
          socket.on("error", () => resolve(text));
        }),
      );
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      // Headers and one byte of a 1,000-byte body; the rest never comes.
      socket.write(
        "POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
      );
    }

    const normal = await send(port, { path: "/invocations", body: { decision: supportRouteDecision() } });

    assert.equal(normal.status, 200, normal.text);
    const slow = await Promise.all(answers);
    for (const socket of sockets) socket.destroy();
    assert.deepEqual(
      slow.map((text) => text.split("\r\n")[0]),
      Array(9).fill("HTTP/1.1 408 Request Timeout"),
    );
  });
});
