import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { discoverModel } from "../../../adapter/server/discoverModel.js";
import { ModelDiscoveryError } from "../../../adapter/server/errors.js";

describe("discoverModel", () => {
  let root: string;
  let case_ = 0;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "discover-model-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function folderWith(files: string[]): Promise<string> {
    case_ += 1;
    const folder = join(root, `case-${case_}`);
    await mkdir(folder, { recursive: true });
    for (const file of files) {
      await mkdir(join(folder, file, ".."), { recursive: true });
      await writeFile(join(folder, file), "GGUF");
    }
    return folder;
  }

  it("finds the one GGUF directly in the model directory", async () => {
    const folder = await folderWith(["model.gguf", "model-manifest.json", "README.md"]);
    assert.equal(await discoverModel({ modelDir: folder }), join(folder, "model.gguf"));
  });

  it("finds the one GGUF one folder below (as SageMaker unpacks model.tar.gz)", async () => {
    const folder = await folderWith(["qwen/Qwen3.5-4B-Q4_K_M.GGUF", "qwen/model-manifest.json"]);
    assert.equal(await discoverModel({ modelDir: folder }), join(folder, "qwen", "Qwen3.5-4B-Q4_K_M.GGUF"));
  });

  it("ignores GGUF files two folders below", async () => {
    const folder = await folderWith(["a/b/deep.gguf"]);
    await assert.rejects(discoverModel({ modelDir: folder }), /no \.gguf file .* \(found: a\/\)/);
  });

  it("lists every GGUF when there are several", async () => {
    const folder = await folderWith(["one.gguf", "sub/two.gguf"]);
    await assert.rejects(discoverModel({ modelDir: folder }), (error: unknown) => {
      assert.ok(error instanceof ModelDiscoveryError);
      assert.match(error.message, /2 \.gguf files .*: one\.gguf, sub\/two\.gguf; keep exactly one/);
      return true;
    });
  });

  it("says what it found when there is no GGUF", async () => {
    const folder = await folderWith(["weights.bin"]);
    await assert.rejects(discoverModel({ modelDir: folder }), /found: weights\.bin/);
  });

  it("uses an explicit path as is, and refuses one that is missing or not a file", async () => {
    const folder = await folderWith(["x.gguf", "y.gguf"]);
    assert.equal(
      await discoverModel({ modelDir: "/nonexistent", modelPath: join(folder, "y.gguf") }),
      join(folder, "y.gguf"),
    );
    await assert.rejects(
      discoverModel({ modelDir: folder, modelPath: join(folder, "z.gguf") }),
      ModelDiscoveryError,
    );
    await assert.rejects(discoverModel({ modelDir: folder, modelPath: folder }), /is not a file/);
  });

  it("names the model directory when it cannot be read", async () => {
    await assert.rejects(
      discoverModel({ modelDir: join(root, "missing") }),
      /model directory .*missing cannot be read/,
    );
  });
});
