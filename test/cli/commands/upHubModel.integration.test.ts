/**
 * `decisions up --model hf:…` as a user runs it, against the loopback test hub (`HF_ENDPOINT`):
 * the first run pulls the file into the project's model cache (`.cache/hub/`) and serves it; a
 * second run serves the cached file without downloading a byte.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { defaultHubCacheDir, generateModel, sha256File } from "../../../adapter/models/index.js";
import { type HubTestServer, randomCommit, startHubTestServer } from "../../support/HubTestServer.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

/** A repository name of this run only, so its cache folder is this test's to remove. */
const REPO = `acme/up-hub-${process.pid}-GGUF`;
const FILE = "tiny-decider-Q8_0.gguf";

let hub: HubTestServer;
let commit: string;
let sha256: string;
let source: string;

before(async () => {
  source = join(tmpdir(), `up-hub-model-${process.pid}.gguf`);
  const generated = await generateModel({ kind: "tiny-qwen3", out: source });
  sha256 = generated.sha256;
  hub = await startHubTestServer();
  commit = randomCommit();
  hub.addRepo(REPO, {
    refs: { main: commit },
    commits: { [commit]: { [FILE]: { bytes: await readFile(source) } } },
  });
});

after(async () => {
  await hub.close();
  await rm(source, { force: true });
  await rm(join(defaultHubCacheDir(), REPO.replace("/", "--")), { recursive: true, force: true });
});

/** Runs `up` until ready, asks the adapter's /ping, stops it; returns its JSON line and stderr. */
async function upOnce(): Promise<{ info: Record<string, string>; stderr: string; ping: number }> {
  let up: UpProcess | undefined;
  try {
    up = await startUpProcess(["--threads", "2", "--model", `hf:${REPO}/${FILE}`], { HF_ENDPOINT: hub.url });
    const ping = await fetch(`${up.info.adapter_url}/ping`);
    return { info: up.info, stderr: up.stderr(), ping: ping.status };
  } finally {
    if (up !== undefined && up.child.exitCode === null) {
      up.child.kill("SIGINT");
      await once(up.child, "exit");
    }
  }
}

describe("decisions up --model hf:…", () => {
  it("pulls once into the model cache and serves it; the second run downloads nothing", async () => {
    // act
    const first = await upOnce();
    const downloadsAfterFirst = hub.requests.filter((request) => request.server === "storage").length;
    const second = await upOnce();
    const downloadsAfterSecond = hub.requests.filter((request) => request.server === "storage").length;

    // assert
    const cached = join(defaultHubCacheDir(), REPO.replace("/", "--"), commit, FILE);
    assert.equal(first.info.model, cached, first.stderr);
    assert.equal(first.info.model_sha256, sha256);
    assert.equal(first.info.model_generated, "false");
    assert.equal(first.ping, 200);
    assert.match(first.stderr, /^pulled hf:/m);
    assert.equal(downloadsAfterFirst, 1);
    assert.equal(second.info.model, cached);
    assert.equal(second.ping, 200);
    assert.match(second.stderr, /^cached hf:/m);
    assert.equal(downloadsAfterSecond, 1, "the second run fetched no byte");
    assert.equal(await sha256File(cached), sha256);
  });
});
