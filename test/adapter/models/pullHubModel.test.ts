import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  generateModel,
  HubClient,
  type HubClientOptions,
  MODEL_MANIFEST_FILE_NAME,
  ModelChecksumMismatchError,
  ModelHubError,
  type PullHubModelOptions,
  pullHubModel,
  readModelManifest,
} from "../../../adapter/models/index.js";
import { type HubTestServer, randomCommit, startHubTestServer } from "../../support/HubTestServer.js";

const REPO = "acme/tiny-decider-GGUF";
const FILE = "tiny-decider-F32.gguf";

let root: string;
let hub: HubTestServer;
let gguf: Buffer;
let mainCommit: string;
let oldCommit: string;
let counter = 0;
let folder: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "pull-hub-model-"));
  const generated = await generateModel({ kind: "tiny-llama", out: join(root, "source", "tiny.gguf") });
  gguf = await readFile(generated.path);
  hub = await startHubTestServer();
  mainCommit = randomCommit();
  oldCommit = randomCommit();
  const tampered = Buffer.from(gguf);
  tampered[tampered.length >> 1] = (tampered[tampered.length >> 1] ?? 0) ^ 0xff;
  hub.addRepo(REPO, {
    refs: { main: mainCommit, v1: oldCommit },
    commits: {
      [mainCommit]: {
        [FILE]: { bytes: gguf },
        "Q8_0/tiny-decider-Q8_0.gguf": { bytes: gguf },
        "tampered.gguf": { bytes: gguf, servedBytes: tampered },
        "notes.gguf": { bytes: Buffer.from("these are notes, not a model\n".repeat(20)) },
        "README.md": { bytes: Buffer.from("# tiny decider\n") },
      },
      [oldCommit]: { [FILE]: { bytes: gguf.subarray(0, gguf.length - 1024) } },
    },
    license: "apache-2.0",
  });
  hub.addRepo("acme/tagged-license", {
    refs: { main: mainCommit },
    commits: { [mainCommit]: { [FILE]: { bytes: gguf } } },
    tags: ["gguf", "license:mit"],
  });
  hub.renameRepo("acme/old-name-GGUF", REPO);
  hub.addRepo("acme/gated-GGUF", {
    refs: { main: mainCommit },
    commits: { [mainCommit]: { [FILE]: { bytes: gguf } } },
    gatedTokens: ["hf_granted"],
  });
});

after(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  counter += 1;
  folder = join(root, `cache-${counter}`);
  hub.requests.length = 0;
});

function client(options: HubClientOptions = {}): HubClient {
  return new HubClient({ endpoint: hub.url, sleep: async () => undefined, ...options });
}

function pull(overrides: Partial<PullHubModelOptions> = {}) {
  return pullHubModel({
    ref: { repo: REPO, file: FILE, revision: "main" },
    client: client(),
    cacheDir: folder,
    ...overrides,
  });
}

async function rejection(promise: Promise<unknown>): Promise<ModelHubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelHubError) return error;
    throw error;
  }
  assert.fail("the pull succeeded");
}

/** A progress callback that drops the held download once the client has received `bytes`. */
function dropAt(bytes: number): PullHubModelOptions["onProgress"] {
  return (progress) => {
    if (progress.bytesReceived === bytes) hub.dropHeld();
  };
}

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

describe("pullHubModel", () => {
  it("pins the revision to its commit, checks the sha256 and writes the manifest beside the GGUF", async () => {
    // act
    const pulled = await pull();

    // assert
    assert.equal(pulled.commit, mainCommit);
    assert.equal(pulled.path, join(folder, "acme--tiny-decider-GGUF", mainCommit, FILE));
    assert.deepEqual(await readFile(pulled.path), gguf);
    assert.equal(pulled.downloaded, true);
    const manifest = await readModelManifest(
      join(folder, "acme--tiny-decider-GGUF", mainCommit, MODEL_MANIFEST_FILE_NAME),
    );
    assert.equal(manifest.file, FILE);
    assert.equal(manifest.repo, REPO);
    assert.equal(manifest.commit, mainCommit);
    assert.equal(manifest.revision, mainCommit);
    assert.equal(manifest.source, `hf:${REPO}/${FILE}`);
    assert.equal(manifest.size_bytes, gguf.length);
    assert.equal(manifest.sha256, pulled.sha256);
    assert.equal(manifest.license, "apache-2.0");
    const resolve = hub.requests.find((request) => request.path.includes("/resolve/"));
    assert.equal(
      resolve?.path,
      `/${REPO}/resolve/${mainCommit}/${FILE}`,
      "the file is resolved at the commit, not the branch",
    );
    assert.deepEqual(
      await filesUnder(folder),
      [FILE, MODEL_MANIFEST_FILE_NAME].sort(),
      "no partial file is left",
    );
  });

  it("pulls an older tag's commit, whose file differs, into a folder of its own", async () => {
    const pulled = await pull({ ref: { repo: REPO, file: FILE, revision: "v1" } });

    assert.equal(pulled.commit, oldCommit);
    assert.equal(pulled.sizeBytes, gguf.length - 1024);
    assert.match(pulled.path, new RegExp(`${oldCommit}/${FILE}$`));
  });

  it("takes the license from a license: tag when the card states none", async () => {
    const pulled = await pull({ ref: { repo: "acme/tagged-license", file: FILE, revision: "main" } });

    assert.equal(pulled.license, "mit");
    assert.equal(pulled.manifest.license, "mit");
  });

  it("pulls a file in a folder of the repository, named by its file name locally", async () => {
    const pulled = await pull({ ref: { repo: REPO, file: "Q8_0/tiny-decider-Q8_0.gguf", revision: "main" } });

    assert.match(pulled.path, /\/tiny-decider-Q8_0\.gguf$/);
    assert.equal(pulled.manifest.source, `hf:${REPO}/Q8_0/tiny-decider-Q8_0.gguf`);
  });

  it("follows the hub's relative redirect of a renamed repository", async () => {
    const pulled = await pull({ ref: { repo: "acme/old-name-GGUF", file: FILE, revision: "main" } });

    assert.equal(pulled.commit, mainCommit);
    assert.deepEqual(await readFile(pulled.path), gguf);
    assert.ok(hub.requests.some((request) => request.path.startsWith(`/${REPO}/resolve/${mainCommit}/`)));
  });

  it("refuses to pull while another live process holds the file's lock, and takes over a dead one's", async () => {
    // prepare: the lock of this file's partial download, held by the parent process (alive)
    const sha256 = (await pull({ cacheDir: join(folder, "probe") })).sha256;
    const modelFolder = join(folder, "acme--tiny-decider-GGUF", mainCommit);
    await mkdir(modelFolder, { recursive: true });
    const lock = join(modelFolder, `${FILE}.${sha256.slice(0, 16)}.part.lock`);
    await writeFile(lock, String(process.ppid));

    // act / assert: busy while the holder lives
    const busy = await rejection(pull());
    assert.equal(busy.reason, "busy");
    assert.match(busy.message, new RegExp(`process ${process.ppid} is already pulling`));

    // act / assert: a lock whose process is gone is taken over
    await writeFile(lock, "999999999");
    const pulled = await pull();
    assert.deepEqual(await readFile(pulled.path), gguf);
    assert.deepEqual(await filesUnder(modelFolder), [FILE, MODEL_MANIFEST_FILE_NAME].sort());
  });

  it("downloads nothing the second time: the file in place is verified and kept", async () => {
    // prepare
    await pull();
    hub.requests.length = 0;

    // act
    const again = await pull();

    // assert
    assert.equal(again.downloaded, false);
    assert.deepEqual(
      hub.requests.filter((request) => request.server === "storage"),
      [],
      "no byte was fetched",
    );
  });

  it("asks the hub nothing for a cached pull pinned to a commit sha", async () => {
    await pull();
    hub.requests.length = 0;

    const again = await pull({ ref: { repo: REPO, file: FILE, revision: mainCommit } });

    assert.equal(again.downloaded, false);
    assert.equal(again.commit, mainCommit);
    assert.deepEqual(hub.requests, []);
  });

  it("keeps the bytes of a download cut at half under a .part name, and the next pull resumes from there", async () => {
    // prepare: the storage dies after half the file, and this pull does not retry
    const half = gguf.length >> 1;
    hub.cutDownloads(half);
    const modelFolder = join(folder, "acme--tiny-decider-GGUF", mainCommit);

    // act 1: the connection drops once the client has the first half
    const cut = await rejection(pull({ attempts: 1, onProgress: dropAt(half) }));

    // assert 1: nothing a model lookup would take; the part holds the bytes received
    assert.equal(cut.reason, "interrupted");
    assert.match(cut.message, /next pull resumes/);
    const afterCut = await filesUnder(modelFolder);
    assert.equal(afterCut.length, 1, `only the partial file: ${afterCut.join(", ")}`);
    const part = afterCut[0] ?? "";
    assert.match(part, /\.part$/);
    assert.ok(!part.endsWith(".gguf"));
    assert.equal((await stat(join(modelFolder, part))).size, half);

    // act 2
    hub.requests.length = 0;
    const resumed = await pull();

    // assert 2
    assert.equal(resumed.resumedFrom, half);
    assert.deepEqual(await readFile(resumed.path), gguf);
    const download = hub.requests.find((request) => request.server === "storage");
    assert.equal(download?.range, `bytes=${half}-`);
    assert.deepEqual(await filesUnder(modelFolder), [FILE, MODEL_MANIFEST_FILE_NAME].sort());
  });

  it("resumes a cut connection by itself within one pull", async () => {
    hub.cutDownloads(1000);

    const pulled = await pull({ attempts: 2, onProgress: dropAt(1000) });

    assert.deepEqual(await readFile(pulled.path), gguf);
    const downloads = hub.requests.filter((request) => request.server === "storage");
    assert.deepEqual(
      downloads.map((request) => request.range),
      [undefined, "bytes=1000-"],
    );
  });

  it("refuses a tampered file: the bytes are removed and nothing is left to be taken for the model", async () => {
    const error = await pull({ ref: { repo: REPO, file: "tampered.gguf", revision: "main" } }).then(
      () => assert.fail("the pull succeeded"),
      (caught: unknown) => caught,
    );

    assert.ok(error instanceof ModelChecksumMismatchError, String(error));
    assert.match((error as Error).message, /the hub states/);
    assert.deepEqual(await filesUnder(folder), []);
  });

  it("refuses a file that is not GGUF by its bytes, keeping nothing", async () => {
    const error = await rejection(pull({ ref: { repo: REPO, file: "notes.gguf", revision: "main" } }));

    assert.equal(error.reason, "not-gguf");
    assert.deepEqual(await filesUnder(folder), []);
  });

  it("refuses a file that is not GGUF by its name, listing the repository's GGUF files", async () => {
    const error = await rejection(pull({ ref: { repo: REPO, file: "README.md", revision: "main" } }));

    assert.equal(error.reason, "not-gguf");
    assert.ok(error.ggufFiles?.includes(FILE));
    assert.match(error.message, /tiny-decider-F32\.gguf/);
    assert.deepEqual(
      hub.requests.filter((request) => request.path.includes("/resolve/")),
      [],
    );
  });

  it("names the repository's GGUF files when the file does not exist", async () => {
    const error = await rejection(
      pull({ ref: { repo: REPO, file: "tiny-decider-Q4_K_M.gguf", revision: "main" } }),
    );

    assert.equal(error.reason, "file-not-found");
    assert.deepEqual(error.ggufFiles, [FILE, "Q8_0/tiny-decider-Q8_0.gguf", "tampered.gguf", "notes.gguf"]);
    assert.match(error.message, /its GGUF files: tiny-decider-F32\.gguf, Q8_0\/tiny-decider-Q8_0\.gguf/);
  });

  it("tells a repository that does not exist from a revision that does not", async () => {
    const repo = await rejection(pull({ ref: { repo: "acme/nothing-here", file: FILE, revision: "main" } }));
    const revision = await rejection(pull({ ref: { repo: REPO, file: FILE, revision: "v9" } }));

    assert.equal(repo.reason, "repo-not-found");
    assert.match(repo.message, /no repository acme\/nothing-here/);
    assert.match(repo.message, /HF_TOKEN/, "a private repository looks the same: the token is named");
    assert.equal(revision.reason, "revision-not-found");
    assert.match(revision.message, /no revision "v9"/);
  });

  it("says a gated repository needs HF_TOKEN, and that a token without access must be granted", async () => {
    const ref = { repo: "acme/gated-GGUF", file: FILE, revision: "main" };

    const withoutToken = await rejection(pull({ ref }));
    const wrongToken = await rejection(pull({ ref, client: client({ token: "hf_other" }) }));

    assert.equal(withoutToken.reason, "gated");
    assert.equal(withoutToken.status, 401);
    assert.match(
      withoutToken.message,
      /is gated: accept its conditions at http:\/\/127\.0\.0\.1:\d+\/acme\/gated-GGUF, then set HF_TOKEN/,
    );
    assert.equal(wrongToken.reason, "gated");
    assert.equal(wrongToken.status, 403);
    assert.match(wrongToken.message, /account of HF_TOKEN has not been granted access/);
    assert.deepEqual(await filesUnder(folder), []);
  });

  it("sends HF_TOKEN to the hub only, not to the storage its redirect points at", async () => {
    const pulled = await pull({
      ref: { repo: "acme/gated-GGUF", file: FILE, revision: "main" },
      client: client({ token: "hf_granted" }),
    });

    assert.deepEqual(await readFile(pulled.path), gguf);
    const hubAuth = hub.requests.filter((request) => request.server === "hub").map((r) => r.authorization);
    const storageAuth = hub.requests
      .filter((request) => request.server === "storage")
      .map((r) => r.authorization);
    assert.ok(hubAuth.every((value) => value === "Bearer hf_granted"));
    assert.deepEqual(storageAuth, [undefined]);
  });

  it("waits as a 429's Retry-After asks, then goes on", async () => {
    hub.rateLimit(2, 3);
    const waits: number[] = [];

    const pulled = await pull({
      client: client({
        sleep: async (ms) => {
          waits.push(ms);
        },
      }),
    });

    assert.deepEqual(waits, [3000, 3000]);
    assert.equal(pulled.commit, mainCommit);
  });

  it("stops with a clear message when the hub asks to wait longer than it may", async () => {
    hub.rateLimit(1, 3600);

    const error = await rejection(pull({ client: client({ maxWaitMs: 60_000 }) }));

    assert.equal(error.reason, "rate-limited");
    assert.match(
      error.message,
      /asking to wait 3600 s; try again later \(requests with HF_TOKEN have a higher limit\)/,
    );
    hub.rateLimit(0, 0);
  });

  it("says the disk is full when a write fails with ENOSPC, keeping no model", async () => {
    // prepare: the partial file is a link to /dev/full, whose writes fail with ENOSPC (a real
    // kernel answer, not a faked error)
    const modelFolder = join(folder, "acme--tiny-decider-GGUF", mainCommit);
    await mkdir(modelFolder, { recursive: true });
    const sha256 = (await pull({ cacheDir: join(folder, "probe") })).sha256;
    await symlink("/dev/full", join(modelFolder, `${FILE}.${sha256.slice(0, 16)}.part`));

    // act
    const error = await rejection(pull());

    // assert
    assert.equal(error.reason, "write-failed");
    assert.match(error.message, /no space left on the device/);
    assert.ok(!(await filesUnder(modelFolder)).includes(FILE));
  });

  it("says a folder cannot be written when --out is not a folder one can create", async () => {
    const file = join(folder, "a-file");
    await mkdir(folder, { recursive: true });
    await writeFile(file, "not a folder");

    const error = await rejection(pull({ out: join(file, "model") }));

    assert.equal(error.reason, "write-failed");
    assert.match(error.message, /cannot write .*a-file\/model \(ENOTDIR\)/);
  });

  it("refuses a folder whose manifest describes another model", async () => {
    const out = join(folder, "out");
    await mkdir(out, { recursive: true });
    await writeFile(
      join(out, MODEL_MANIFEST_FILE_NAME),
      JSON.stringify({
        file: "other.gguf",
        sha256: "0".repeat(64),
        size_bytes: 1,
        source: null,
        revision: null,
        created_at: "x",
      }),
    );

    const error = await rejection(pull({ out }));

    assert.equal(error.reason, "write-failed");
    assert.match(error.message, /describes other\.gguf: a folder holds one model/);
  });
});
