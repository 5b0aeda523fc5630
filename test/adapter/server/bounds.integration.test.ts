/**
 * Bad input cannot stall the real server (issue 19): requests whose prompts would take seconds to
 * render and tokenize are refused by cheap bounds while `/ping` stays answered, and slow senders
 * hold a body read, never an admission. `serve()` on the generated tiny-qwen3 GGUF, over loopback.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import { serve } from "../../../adapter/server/serve.js";
import { type SendResult, send, supportRouteDecision } from "./httpClient.js";
import { CapturingLogger, testSettings } from "./serverHarness.js";
import { openSlowSenders, statusLine } from "./slowSenders.js";

/** Latencies of `count` pings sent one after another. */
async function pingLatencies(port: number, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const ping = await send(port, { method: "GET", path: "/ping" });
    assert.equal(ping.status, 200);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Posts `body` to /invocations; `written` settles once the whole body is handed to the socket. */
function post(port: number, body: unknown): { written: Promise<void>; answer: Promise<SendResult> } {
  const text = Buffer.from(JSON.stringify(body));
  let onWritten: () => void = () => undefined;
  const written = new Promise<void>((resolve) => (onWritten = resolve));
  const answer = new Promise<SendResult>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/invocations",
        agent: false,
        headers: { "content-type": "application/json", "content-length": text.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const all = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: all, json: undefined });
        });
      },
    );
    req.on("error", reject);
    req.end(text, onWritten);
  });
  return { written, answer };
}

/**
 * `/ping`'s latency while a request is being prepared, compared with its latency alone, on the
 * same server in the same run.
 *
 * Why this shape: the machine running the tests is shared and busy, so any single ping can be
 * late for reasons that are not the server's (scheduling, another process's burst), and a fixed
 * bound on one ping would fail for them. A request that holds the event loop delays every ping
 * sent beside it by the whole time it holds it (seconds, before the prompt worker). So: after one
 * unmeasured request, several pings alone give the baseline (their median), each of several
 * pairs sends the request, waits
 * until its whole body is written (the server is then reading or preparing it) and sends a ping;
 * the fastest of those pings, less the baseline, is what the request cost `/ping`. The issue's
 * "within 100 ms" is asserted on that difference.
 */
async function pingBeside(port: number, body: unknown, samples: number) {
  // Once unmeasured first: the first request of a shape pays for compiling the code it runs
  // (tens of milliseconds of JIT), which is not what is measured here.
  const warmUp = await post(port, body).answer;
  const baseline = median(await pingLatencies(port, 5));
  const beside: number[] = [];
  const answers: SendResult[] = [];
  let pingsFirst = 0;
  for (let i = 0; i < samples; i += 1) {
    const bad = post(port, body);
    let badDone = false;
    const answered = bad.answer.then((result) => {
      badDone = true;
      return result;
    });
    await bad.written;
    const [latency] = await pingLatencies(port, 1);
    if (!badDone) pingsFirst += 1;
    beside.push(latency ?? Number.NaN);
    answers.push(await answered);
  }
  const cost = Math.min(...beside) - baseline;
  return { baseline, beside, cost, answers: [warmUp, ...answers], pingsFirst };
}

function report(what: string, result: Awaited<ReturnType<typeof pingBeside>>): string {
  const ms = (value: number): string => value.toFixed(1);
  return `${what}: /ping alone ${ms(result.baseline)} ms (median), beside it ${result.beside.map(ms).join(", ")} ms, cost ${ms(result.cost)} ms; answered before the request ${result.pingsFirst}/${result.beside.length}`;
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
        testSettings({
          modelDir,
          threads: 2,
          contextSize: 4096,
          maxInFlight: 1,
          queueDepth: 8,
          bodyTimeoutSeconds: 2,
        }),
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

    const result = await pingBeside(port, body, 5);

    for (const refused of result.answers) {
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /options × rotations|over the limit/);
    }
    console.log(report("3 × 255 options × 255 rotations", result));
    assert.ok(result.cost < 100, report("/ping held by the 255×255×3 request", result));
  });

  it("refuses a 4 MB state before tokenizing it, /ping answered meanwhile", async () => {
    const state = "lorem ipsum dolor sit amet ".repeat(150_000);
    const body = { decision: { ...supportRouteDecision(), state } };
    assert.ok(state.length > 4_000_000);

    const result = await pingBeside(port, body, 3);

    for (const refused of result.answers) {
      assert.ok(refused.status === 400 || refused.status === 413, refused.text);
      if (refused.status === 400) assert.match(refused.text, /the state is \d+ bytes, over the \d+ bytes/);
    }
    console.log(report("a 4 MB state", result));
    assert.ok(result.cost < 100, report("/ping held by the 4 MB state", result));
  });

  it("prepares what passes the cheap bounds off the event loop: 3 × 255 options × 40 rotations", async () => {
    // 255 × 40 × 3 = 30,600 ≤ 32,768: the cheap bound lets it through; each prompt is ~5,600
    // tokens, over the 4,096 context. On the event loop this took 5.8 s (busy machine).
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
        debias_rotations: 40,
      })),
    };

    const result = await pingBeside(port, body, 5);

    for (const refused of result.answers) {
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /needs \d+ tokens, over the limit of 4095/);
    }
    console.log(report("3 × 255 options × 40 rotations", result));
    assert.ok(result.cost < 100, report("/ping held by the 255×40×3 request", result));
  });

  it("tokenizes a 60 KB state off the event loop, and refuses it for its tokens", async () => {
    // Under the 65,536 bytes the cheap bound lets through at 4,096 tokens × 16 bytes, and ~11,000
    // tokens: only tokenizing tells. On the event loop a state of twice this size took 1.2 s to
    // render and tokenize (busy machine).
    const state = "lorem ipsum dolor sit amet ".repeat(2_200);
    const body = { decision: { ...supportRouteDecision(), state } };
    assert.ok(state.length > 59_000 && state.length < 65_536);

    const result = await pingBeside(port, body, 5);

    for (const refused of result.answers) {
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /needs \d+ tokens, over the limit of 4095/);
    }
    console.log(report("a 60 KB state", result));
    assert.ok(result.cost < 100, report("/ping held by the 60 KB state", result));
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

  it("answers /v1/systemone 200 while 40 senders that stalled after one body byte are open, then cuts them 408", async () => {
    // 40 > the 32 body reads the server allowed at once before issue 30: those reads took every
    // slot and a normal request got 503 for the whole body deadline.
    const slow = await openSlowSenders(port, 40, "/v1/systemone");
    // A round trip after the 40: the server has taken their headers and first bytes in by now.
    assert.equal((await send(port, { method: "GET", path: "/ping" })).status, 200);

    const normal = await send(port, {
      path: "/v1/systemone",
      body: {
        state: "The checkout page fails for every customer since the last deploy.",
        questions: {
          team: { type: "choice", instructions: "Which team owns this?", criteria: ["web", "payments"] },
        },
      },
    });
    const openWhenAnswered = slow.sockets.length - slow.closed();

    assert.equal(normal.status, 200, normal.text);
    assert.equal(typeof normal.json.answers.team.choice, "string");
    const answers = await Promise.all(slow.answers);
    slow.destroy();
    console.log(`slow senders still open when /v1/systemone was answered: ${openWhenAnswered} of 40`);
    assert.deepEqual(answers.map(statusLine), Array(40).fill("HTTP/1.1 408 Request Timeout"));
  });
});
