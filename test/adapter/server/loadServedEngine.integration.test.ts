/**
 * The served engine as a process on a real model: what reaches stdout and stderr (llama.cpp's own
 * log lines included) and how every endpoint names the model. One process for the file.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import { send, supportRouteDecision } from "./httpClient.js";

const FIXTURE = new URL("./serveProcess.fixture.ts", import.meta.url).pathname;

/**
 * Copies a generated GGUF without its `general.name` (the key is renamed in place, same length, so
 * the file stays valid): the model is then named after its file, as many downloaded GGUFs are.
 */
async function copyWithoutGeneralName(source: string, target: string): Promise<void> {
  const bytes = await readFile(source);
  const key = Buffer.from("general.name");
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(key.length));
  const at = bytes.indexOf(Buffer.concat([length, key]));
  assert.ok(at >= 0, "the generated GGUF names itself");
  Buffer.from("general.nam_").copy(bytes, at + 8);
  await writeFile(target, bytes);
}

/** Collects a stream's lines as they come, and resolves when a line matches. */
class LineReader {
  readonly lines: string[] = [];
  #partial = "";
  #waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];

  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const parts = (this.#partial + chunk).split("\n");
      this.#partial = parts.pop() ?? "";
      for (const line of parts) this.#add(line);
    });
    stream.on("end", () => {
      if (this.#partial !== "") this.#add(this.#partial);
      this.#partial = "";
    });
  }

  waitFor(match: (line: string) => boolean): Promise<string> {
    const found = this.lines.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  #add(line: string): void {
    this.lines.push(line);
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(line)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  }
}

function eventOf(line: string): string | undefined {
  try {
    return (JSON.parse(line) as { event?: string }).event;
  } catch {
    return undefined;
  }
}

describe("the served process on tiny-qwen3", () => {
  let folder: string;
  let child: ChildProcess;
  let stdout: LineReader;
  let stderr: LineReader;
  let port: number;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "served-process-"));
    const modelDir = join(folder, "model");
    await mkdir(modelDir);
    const gguf = join(modelDir, "unnamed-model.gguf");
    await copyWithoutGeneralName(await ensureGeneratedModel("tiny-qwen3"), gguf);
    await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42-unnamed" });
    child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: folder,
        PORT: "0",
        SEMIF_MODEL_DIR: modelDir,
        SEMIF_THREADS: "2",
        SEMIF_CONTEXT_SIZE: "8192",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    stdout = new LineReader(child.stdout as NodeJS.ReadableStream);
    stderr = new LineReader(child.stderr as NodeJS.ReadableStream);
    const exited = once(child, "exit").then(() => "exited");
    const listening = await stdout.waitFor((line) => eventOf(line) === "listening");
    port = (JSON.parse(listening) as { port: number }).port;
    const ready = await Promise.race([stdout.waitFor((line) => eventOf(line) === "ready"), exited]);
    assert.notEqual(ready, "exited", `the server did not start:\n${stdout.lines.join("\n")}`);
  });

  after(async () => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
    await rm(folder, { recursive: true, force: true });
  });

  it("names the model the same on the SemIf, System One and chat endpoints", async () => {
    const semif = await send(port, { body: { decision: supportRouteDecision() } });
    assert.equal(semif.status, 200, semif.text);
    const systemOne = await send(port, {
      path: "/v1/systemone",
      body: {
        state: "The checkout page fails for every customer.",
        questions: { outage: { type: "noul", instructions: "Is this an outage?" } },
      },
    });
    assert.equal(systemOne.status, 200, systemOne.text);
    const chat = await send(port, {
      path: "/v1/chat/completions",
      body: { messages: [{ role: "user", content: "A or B?" }], max_tokens: 2 },
    });
    assert.equal(chat.status, 200, chat.text);
    assert.equal(semif.json.result.model, "unnamed-model");
    assert.equal(systemOne.json.model, "unnamed-model");
    assert.equal(chat.json.model, "unnamed-model");
  });

  it("writes only JSON lines, llama.cpp's own log lines included, and stops on SIGTERM", async () => {
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    assert.equal(code, 0);
    // Let the pipes drain to their end.
    if (child.stdout?.readableEnded === false) await once(child.stdout, "end");
    if (child.stderr?.readableEnded === false) await once(child.stderr, "end");
    const records = stdout.lines.map((line) => {
      assert.doesNotThrow(() => JSON.parse(line), `not a JSON line on stdout: ${line}`);
      return JSON.parse(line) as { level?: string; event?: string; message?: string };
    });
    for (const line of stderr.lines) {
      assert.doesNotThrow(() => JSON.parse(line), `not a JSON line on stderr: ${line}`);
    }
    // The generated vocabulary makes llama.cpp warn at load ("control-looking token …").
    const llama = records.filter((record) => record.event === "llama_cpp");
    assert.ok(llama.length > 0, "llama.cpp's log lines come through the logger");
    for (const record of llama) {
      assert.ok(["debug", "info", "warn", "error"].includes(record.level ?? ""), record.level);
      assert.equal(typeof record.message, "string");
      assert.ok(!record.message?.endsWith("\n"));
    }
    assert.ok(llama.some((record) => record.level === "warn"));
    assert.ok(records.some((record) => record.event === "stopped"));
  });
});
