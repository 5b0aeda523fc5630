import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  MODEL_MANIFEST_FILE_NAME,
  ModelManifestError,
  ModelManifestMismatchError,
  readModelManifest,
  sha256File,
  verifyModelManifest,
  writeModelManifest,
} from "../../../adapter/models/index.js";

let root: string;
let folder: string;
let gguf: string;
let counter = 0;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "model-manifest-"));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  counter += 1;
  folder = join(root, String(counter));
  gguf = join(folder, "model.gguf");
  await mkdir(folder, { recursive: true });
  await writeFile(gguf, "GGUF pretend model bytes");
});

describe("sha256File", () => {
  it("hashes a file's bytes", async () => {
    const expected = createHash("sha256").update("GGUF pretend model bytes").digest("hex");

    const actual = await sha256File(gguf);

    assert.equal(actual, expected);
  });
});

describe("writeModelManifest", () => {
  it("writes model-manifest.json beside the GGUF with its name, sha256, size, source and revision", async () => {
    // act
    const written = await writeModelManifest(gguf, { source: "generated:tiny-llama", revision: "seed42" });

    // assert
    const onDisk = JSON.parse(await readFile(join(folder, MODEL_MANIFEST_FILE_NAME), "utf8")) as unknown;
    assert.deepEqual(onDisk, written);
    assert.equal(written.file, "model.gguf");
    assert.equal(written.sha256, await sha256File(gguf));
    assert.equal(written.size_bytes, 24);
    assert.equal(written.source, "generated:tiny-llama");
    assert.equal(written.revision, "seed42");
    assert.ok(!Number.isNaN(Date.parse(written.created_at)));
  });

  it("records null source and revision when none are given", async () => {
    const written = await writeModelManifest(gguf);

    assert.equal(written.source, null);
    assert.equal(written.revision, null);
    assert.deepEqual(
      Object.keys(written).sort(),
      ["created_at", "file", "revision", "sha256", "size_bytes", "source"],
      "no hub fields unless given: older readers see the manifest they know",
    );
  });
});

describe("readModelManifest", () => {
  it("reads back what writeModelManifest wrote", async () => {
    const written = await writeModelManifest(gguf, { source: "s" });

    const read = await readModelManifest(join(folder, MODEL_MANIFEST_FILE_NAME));

    assert.deepEqual(read, written);
  });

  it("reads back a pulled model's repository, commit and license", async () => {
    const commit = "0123456789abcdef0123456789abcdef01234567";
    const written = await writeModelManifest(gguf, { hub: { repo: "acme/x-GGUF", commit, license: null } });

    const read = await readModelManifest(join(folder, MODEL_MANIFEST_FILE_NAME));

    assert.deepEqual(read, written);
    assert.equal(read.repo, "acme/x-GGUF");
    assert.equal(read.commit, commit);
    assert.equal(read.license, null);
  });

  it("rejects hub fields that cannot be a repository or a commit", async () => {
    const path = join(folder, MODEL_MANIFEST_FILE_NAME);
    const base = { file: "model.gguf", sha256: "0".repeat(64), size_bytes: 1, created_at: "x" };

    await writeFile(path, JSON.stringify({ ...base, repo: "no-owner" }));
    await assert.rejects(readModelManifest(path), /"repo"/);
    await writeFile(path, JSON.stringify({ ...base, commit: "main" }));
    await assert.rejects(readModelManifest(path), /"commit"/);
  });

  it("rejects a manifest that is not JSON or lacks a field", async () => {
    const path = join(folder, MODEL_MANIFEST_FILE_NAME);
    await writeFile(path, "{not json");
    await assert.rejects(readModelManifest(path), ModelManifestError);

    await writeFile(path, JSON.stringify({ file: "model.gguf", size_bytes: 1, created_at: "x" }));
    await assert.rejects(readModelManifest(path), (error: unknown) => {
      return error instanceof ModelManifestError && error.message.includes('"sha256"');
    });
  });
});

describe("verifyModelManifest", () => {
  it("accepts a GGUF that matches its manifest", async () => {
    const written = await writeModelManifest(gguf, { source: "s", revision: "r" });

    const result = await verifyModelManifest(gguf);

    assert.deepEqual(result, { sha256: written.sha256, sizeBytes: 24, manifest: written });
  });

  it("hashes a GGUF without a manifest and returns manifest null", async () => {
    const result = await verifyModelManifest(gguf);

    assert.equal(result.manifest, null);
    assert.equal(result.sha256, await sha256File(gguf));
  });

  it("refuses a GGUF whose bytes changed, naming the file and both sha256 and sizes", async () => {
    // prepare
    const written = await writeModelManifest(gguf);
    await appendFile(gguf, "!");
    const actual = await sha256File(gguf);

    // act / assert
    await assert.rejects(verifyModelManifest(gguf), (error: unknown) => {
      assert.ok(error instanceof ModelManifestMismatchError);
      assert.equal(error.name, "ModelManifestMismatchError");
      assert.ok(error.message.includes(gguf), error.message);
      assert.ok(error.message.includes(written.sha256) && error.message.includes(actual), error.message);
      assert.ok(error.message.includes("expected 24, actual 25"), error.message);
      return true;
    });
  });

  it("refuses a GGUF with the same size but different bytes", async () => {
    await writeModelManifest(gguf);
    await writeFile(gguf, "GGUF pretend model BYTES");

    await assert.rejects(verifyModelManifest(gguf), ModelManifestMismatchError);
  });

  it("refuses a manifest that describes another file", async () => {
    await writeModelManifest(gguf);
    const other = join(folder, "other.gguf");
    await writeFile(other, "GGUF pretend model bytes");

    await assert.rejects(verifyModelManifest(other), (error: unknown) => {
      return error instanceof ModelManifestMismatchError && error.message.includes('"model.gguf"');
    });
  });
});
