/**
 * From a hub repository to a served and packaged model, through the real CLI (`bin/decisions.js`,
 * the compiled dist/ that `npm test` builds), against the loopback test hub named by
 * `HF_ENDPOINT`: `models pull`, `models package`, then `serve` on the pulled file, which loads it
 * with llama.cpp (hence a model test).
 */
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { generateModel } from "../../../adapter/models/index.js";
import { type HubTestServer, randomCommit, startHubTestServer } from "../../support/HubTestServer.js";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;
const REPO = "acme/tiny-decider-GGUF";
const FILE = "tiny-decider-F32.gguf";
const run = promisify(execFile);

let root: string;
let hub: HubTestServer;
let commit: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "models-pull-cli-"));
  const gguf = await readFile(
    (await generateModel({ kind: "tiny-llama", out: join(root, "tiny.gguf") })).path,
  );
  hub = await startHubTestServer();
  commit = randomCommit();
  hub.addRepo(REPO, {
    refs: { main: commit },
    commits: { [commit]: { [FILE]: { bytes: gguf } } },
    license: "apache-2.0",
  });
});

after(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});

/** `decisions <args>` as a process; resolves with its exit code and output, whatever the code. */
async function decisions(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/decisions.js", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, HF_ENDPOINT: hub.url, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("decisions models pull through the CLI", () => {
  it("pulls with HF_ENDPOINT, packages the pulled file, and serves it", async () => {
    // act 1: pull
    const out = join(root, "pulled");
    const pulled = await decisions([
      "models",
      "pull",
      REPO,
      "--file",
      FILE,
      "--revision",
      "main",
      "--out",
      out,
    ]);

    // assert 1
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, new RegExp(`revision +main = commit ${commit}`));
    const path = join(out, FILE);

    // act 2: package
    const archive = join(root, "model.tar.gz");
    const packaged = await decisions(["models", "package", path, "--out", archive]);

    // assert 2: the archive's manifest carries the pin
    assert.equal(packaged.code, 0, packaged.stderr);
    const { stdout: listing } = await run("tar", ["-tzf", archive]);
    assert.deepEqual(listing.trim().split("\n").sort(), [FILE, "model-manifest.json"].sort());
    const { stdout: manifestText } = await run("tar", ["-xzOf", archive, "model-manifest.json"]);
    const manifest = JSON.parse(manifestText) as Record<string, unknown>;
    assert.equal(manifest.repo, REPO);
    assert.equal(manifest.commit, commit);
    assert.equal(manifest.license, "apache-2.0");

    // act 3: serve the pulled file until /ping answers
    const served = await serveAndPing(path);

    // assert 3: the server verified it against the pull's manifest and answers
    assert.equal(served.ping, 200);
    assert.equal(served.verified.source, `hf:${REPO}/${FILE}`);
    assert.equal(served.verified.revision, commit);
  });

  it("takes one hf: URI, and says which GGUF files a repository has when the file is missing", async () => {
    const ok = await decisions([
      "models",
      "pull",
      `hf:${REPO}/${FILE}@${commit}`,
      "--out",
      join(root, "uri"),
    ]);
    const missing = await decisions([
      "models",
      "pull",
      REPO,
      "--file",
      "nope.gguf",
      "--out",
      join(root, "x"),
    ]);

    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /has no file "nope\.gguf" .*its GGUF files: tiny-decider-F32\.gguf/);
  });
});

/** Starts `decisions serve --model <path>` on a free port, asks /ping, then stops it. */
async function serveAndPing(path: string): Promise<{ ping: number; verified: Record<string, unknown> }> {
  const child = spawn(
    process.execPath,
    ["bin/decisions.js", "serve", "--model", path, "--port", "0", "--threads", "1"],
    { cwd: REPO_ROOT, env: { ...process.env, SEMIF_HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    const events = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const look = (): void => {
        const parsed = stdout
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        if (parsed.some((event) => event.event === "ready")) resolve(parsed);
      };
      child.stdout.on("data", look);
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${stdout}${stderr}`)));
    });
    const port = events.find((event) => event.event === "listening")?.port;
    const verified = events.find((event) => event.event === "model_verified") ?? {};
    const ping = await fetch(`http://127.0.0.1:${String(port)}/ping`);
    child.kill("SIGTERM");
    assert.equal(await exited, 0, stderr);
    return { ping: ping.status, verified };
  } finally {
    child.kill("SIGKILL");
  }
}
