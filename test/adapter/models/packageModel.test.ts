import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { promisify } from "node:util";
import {
  MODEL_MANIFEST_FILE_NAME,
  ModelManifestMismatchError,
  ModelPackageError,
  packageModel,
  verifyModelManifest,
  writeModelManifest,
} from "../../../adapter/models/index.js";

const run = promisify(execFile);

let root: string;
let folder: string;
let gguf: string;
let ggufBytes: Buffer;
let counter = 0;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "package-model-test-"));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  counter += 1;
  folder = join(root, String(counter));
  await mkdir(folder, { recursive: true });
  gguf = join(folder, "tiny-Q4_K_M.gguf");
  // Several MiB so the archive spans many tar blocks and gzip chunks.
  ggufBytes = Buffer.concat([Buffer.from("GGUF", "latin1"), randomBytes(3 * 1024 * 1024 + 17)]);
  await writeFile(gguf, ggufBytes);
});

async function listArchive(archive: string): Promise<string[]> {
  const { stdout } = await run("tar", ["-tzf", archive]);
  return stdout.split("\n").filter((line) => line !== "");
}

describe("packageModel", () => {
  it("writes a model.tar.gz with the GGUF and model-manifest.json at the archive root", async () => {
    const out = join(folder, "model.tar.gz");

    const packaged = await packageModel(gguf, out, { source: "hf:example/tiny-GGUF", revision: "abc123" });

    assert.deepEqual((await listArchive(out)).sort(), [MODEL_MANIFEST_FILE_NAME, "tiny-Q4_K_M.gguf"].sort());
    const extracted = join(folder, "extracted");
    await mkdir(extracted);
    await run("tar", ["-xzf", out, "-C", extracted]);
    assert.ok((await readFile(join(extracted, "tiny-Q4_K_M.gguf"))).equals(ggufBytes));
    const manifest = JSON.parse(await readFile(join(extracted, MODEL_MANIFEST_FILE_NAME), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(manifest.file, "tiny-Q4_K_M.gguf");
    assert.equal(manifest.sha256, createHash("sha256").update(ggufBytes).digest("hex"));
    assert.equal(manifest.size_bytes, ggufBytes.length);
    assert.equal(manifest.source, "hf:example/tiny-GGUF");
    assert.equal(manifest.revision, "abc123");
    assert.deepEqual(manifest, packaged.manifest);
    // What the adapter does at start-up: the unpacked GGUF matches the manifest beside it.
    const verified = await verifyModelManifest(join(extracted, "tiny-Q4_K_M.gguf"));
    assert.equal(verified.manifest?.sha256, manifest.sha256);
    assert.ok(packaged.archiveBytes > 0);
  });

  it("keeps a pulled model's repository, commit and license in the archive's manifest", async () => {
    // prepare: the manifest `decisions models pull` writes
    const commit = "a".repeat(40);
    await writeModelManifest(gguf, {
      source: "hf:acme/tiny-GGUF/tiny-Q4_K_M.gguf",
      revision: commit,
      hub: { repo: "acme/tiny-GGUF", commit, license: "apache-2.0" },
    });
    const out = join(folder, "model.tar.gz");

    // act
    const packaged = await packageModel(gguf, out);

    // assert
    const extracted = join(folder, "extracted");
    await mkdir(extracted);
    await run("tar", ["-xzf", out, "-C", extracted]);
    const manifest = JSON.parse(await readFile(join(extracted, MODEL_MANIFEST_FILE_NAME), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(manifest.repo, "acme/tiny-GGUF");
    assert.equal(manifest.commit, commit);
    assert.equal(manifest.license, "apache-2.0");
    assert.equal(manifest.source, "hf:acme/tiny-GGUF/tiny-Q4_K_M.gguf");
    assert.equal(manifest.revision, commit);
    assert.deepEqual(manifest, packaged.manifest);
  });

  it("refuses to overwrite an existing archive and leaves it unchanged", async () => {
    const out = join(folder, "model.tar.gz");
    await writeFile(out, "already here");

    await assert.rejects(
      packageModel(gguf, out),
      (error: unknown) =>
        error instanceof ModelPackageError && error.reason === "target-exists" && error.path === out,
    );

    assert.equal(await readFile(out, "utf8"), "already here");
  });

  it("refuses a file that is not a GGUF and leaves no archive or partial file behind", async () => {
    const notGguf = join(folder, "weights.bin");
    await writeFile(notGguf, "PK\u0003\u0004 not a model");
    const out = join(folder, "model.tar.gz");

    await assert.rejects(
      packageModel(notGguf, out),
      (error: unknown) => error instanceof ModelPackageError && error.reason === "not-a-gguf",
    );

    assert.deepEqual((await readdir(folder)).sort(), ["tiny-Q4_K_M.gguf", "weights.bin"].sort());
  });

  it("keeps the source and revision of a manifest already beside the GGUF", async () => {
    await writeModelManifest(gguf, { source: "hf:example/from-beside", revision: "v1" });
    const out = join(folder, "model.tar.gz");

    const packaged = await packageModel(gguf, out);

    assert.equal(packaged.manifest.source, "hf:example/from-beside");
    assert.equal(packaged.manifest.revision, "v1");
  });

  it("refuses a GGUF that differs from the manifest beside it", async () => {
    await writeModelManifest(gguf);
    await writeFile(gguf, Buffer.concat([ggufBytes, Buffer.from("changed")]));
    const out = join(folder, "model.tar.gz");

    await assert.rejects(packageModel(gguf, out), ModelManifestMismatchError);

    assert.ok(!(await readdir(folder)).includes("model.tar.gz"));
  });
});
