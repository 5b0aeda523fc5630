/**
 * `decisions models pull` and `--model hf:…` of `up`/`start`, in-process against the loopback test
 * hub (test/support/HubTestServer.ts); the same through the real CLI process is
 * modelsPullCli.integration.test.ts.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { generateModel, ModelHubError, readModelManifest } from "../../../adapter/models/index.js";
import { createModelsCommand } from "../../../cli/commands/modelsCommand.js";
import { resolveServedModel } from "../../../cli/commands/resolveServedModel.js";
import { UsageError } from "../../../cli/errors.js";
import { type HubTestServer, randomCommit, startHubTestServer } from "../../support/HubTestServer.js";

const REPO = "acme/tiny-decider-GGUF";
const FILE = "tiny-decider-F32.gguf";

let root: string;
let hub: HubTestServer;
let commit: string;
let gguf: Buffer;
let counter = 0;
let folder: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "models-pull-"));
  gguf = await readFile((await generateModel({ kind: "tiny-llama", out: join(root, "tiny.gguf") })).path);
  hub = await startHubTestServer();
  commit = randomCommit();
  hub.addRepo(REPO, {
    refs: { main: commit },
    commits: { [commit]: { [FILE]: { bytes: gguf }, "other.gguf": { bytes: gguf } } },
    license: "apache-2.0",
  });
});

after(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  counter += 1;
  folder = join(root, String(counter));
  hub.requests.length = 0;
});

function capture(env: Record<string, string | undefined> = { HF_ENDPOINT: hub.url }) {
  let out = "";
  let err = "";
  const command = createModelsCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text), isTTY: false },
    env,
  });
  return { command, stdout: () => out, stderr: () => err };
}

describe("decisions models pull", () => {
  it("pulls <owner>/<name> --file --revision into --out, printing the commit, sha256 and license", async () => {
    // prepare
    const { command, stdout, stderr } = capture();
    const out = join(folder, "model");

    // act
    const code = await command.run(["pull", REPO, "--file", FILE, "--revision", "main", "--out", out]);

    // assert
    assert.equal(code, 0);
    assert.match(stdout(), new RegExp(`^path +${join(out, FILE)}$`, "m"));
    assert.match(stdout(), new RegExp(`^revision +main = commit ${commit}$`, "m"));
    assert.match(stdout(), /^license +apache-2\.0$/m);
    assert.match(stdout(), /^next +decisions models package .* --out model\.tar\.gz$/m);
    assert.deepEqual(await readFile(join(out, FILE)), gguf);
    assert.equal((await readModelManifest(join(out, "model-manifest.json"))).commit, commit);
    assert.match(
      stderr(),
      /tiny-decider-F32\.gguf: 100% /,
      "plain progress lines when stderr is no terminal",
    );
    assert.ok(
      !stderr().includes("\r") && !stderr().includes("\u001b["),
      "no control characters off a terminal",
    );
  });

  it("takes the same as one hf: URI", async () => {
    const { command, stdout } = capture();

    const code = await command.run(["pull", `hf:${REPO}/${FILE}@main`, "--out", join(folder, "uri")]);

    assert.equal(code, 0);
    assert.match(stdout(), new RegExp(`commit ${commit}`));
  });

  it("refuses a missing --file, an hf: URI with --file and a repository without an owner as usage errors", async () => {
    const { command } = capture();

    await assert.rejects(command.run(["pull", REPO]), (error: unknown) => {
      return error instanceof UsageError && /--file <name\.gguf> is required/.test(error.message);
    });
    await assert.rejects(command.run(["pull", `hf:${REPO}/${FILE}`, "--file", FILE]), UsageError);
    await assert.rejects(command.run(["pull", "tiny-decider", "--file", FILE]), (error: unknown) => {
      return error instanceof UsageError && /<owner>\/<name>/.test(error.message);
    });
    assert.deepEqual(hub.requests, [], "nothing is asked of the hub");
  });

  it("names the repository's GGUF files when the file does not exist", async () => {
    const { command } = capture();

    await assert.rejects(
      command.run(["pull", REPO, "--file", "missing.gguf", "--out", join(folder, "x")]),
      (error: unknown) =>
        error instanceof ModelHubError &&
        /its GGUF files: tiny-decider-F32\.gguf, other\.gguf/.test(error.message),
    );
  });
});

describe("--model hf:… of up and start", () => {
  it("pulls into the model cache once; the second run downloads nothing", async () => {
    // prepare
    let err = "";
    const options = {
      env: { HF_ENDPOINT: hub.url },
      stderr: { write: (text: string) => (err += text), isTTY: false },
      cacheDir: join(folder, "cache"),
    };

    // act
    const first = await resolveServedModel(`hf:${REPO}/${FILE}`, options);
    const downloadsFirst = hub.requests.filter((request) => request.server === "storage").length;
    const second = await resolveServedModel(`hf:${REPO}/${FILE}`, options);
    const downloadsBoth = hub.requests.filter((request) => request.server === "storage").length;

    // assert
    assert.equal(first, join(folder, "cache", "acme--tiny-decider-GGUF", commit, FILE));
    assert.equal(second, first);
    assert.equal(downloadsFirst, 1);
    assert.equal(downloadsBoth, 1, "the second run fetched no byte");
    assert.match(err, /^pulled hf:/m);
    assert.match(err, /^cached hf:/m);
  });

  it("passes a file path (or no model) through untouched, asking the hub nothing", async () => {
    const options = { env: { HF_ENDPOINT: hub.url }, stderr: { write: () => true } };

    assert.equal(await resolveServedModel("models/x.gguf", options), "models/x.gguf");
    assert.equal(await resolveServedModel(undefined, options), undefined);
    assert.deepEqual(hub.requests, []);
  });

  it("refuses an hf: URI that names no file as a usage error", async () => {
    const options = { env: { HF_ENDPOINT: hub.url }, stderr: { write: () => true } };

    await assert.rejects(resolveServedModel(`hf:${REPO}`, options), (error: unknown) => {
      return error instanceof UsageError && /--model: .* names no file/.test(error.message);
    });
  });
});
