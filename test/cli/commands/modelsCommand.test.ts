import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MODEL_KINDS, ModelManifestMismatchError, sha256File } from "../../../adapter/models/index.js";
import { createModelsCommand } from "../../../cli/commands/modelsCommand.js";
import { UsageError } from "../../../cli/errors.js";

let folder: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), "models-command-"));
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

function capture(): {
  command: ReturnType<typeof createModelsCommand>;
  stdout: () => string;
  stderr: () => string;
} {
  let out = "";
  let err = "";
  const command = createModelsCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { command, stdout: () => out, stderr: () => err };
}

describe("decisions models", () => {
  it("lists every kind with a description", async () => {
    const { command, stdout } = capture();

    const code = await command.run(["list"]);

    assert.equal(code, 0);
    const lines = stdout().trim().split("\n");
    assert.equal(lines.length, MODEL_KINDS.length);
    for (const [i, kind] of MODEL_KINDS.entries()) assert.ok(lines[i]?.startsWith(kind), lines[i]);
  });

  it("generates a model and prints its path, size and sha256", async () => {
    const { command, stdout } = capture();
    const out = join(folder, "tiny.gguf");

    const code = await command.run(["generate", "--kind", "tiny-llama", "--out", out, "--seed", "3"]);

    assert.equal(code, 0);
    assert.match(stdout(), new RegExp(`path +${out.replaceAll("\\", "\\\\")}`));
    assert.match(stdout(), /seed +3\n/);
    assert.match(stdout(), /size +\d+ bytes/);
    assert.ok(stdout().includes(`sha256  ${await sha256File(out)}`), stdout());
  });

  it("rejects an unknown kind, a missing --out, a bad seed and an unknown option as usage errors", async () => {
    const { command } = capture();

    await assert.rejects(command.run(["generate", "--kind", "tiny-gpt", "--out", "x.gguf"]), UsageError);
    await assert.rejects(command.run(["generate", "--kind", "tiny-llama"]), UsageError);
    await assert.rejects(
      command.run(["generate", "--kind", "tiny-llama", "--out", "x", "--seed", "1.5"]),
      UsageError,
    );
    await assert.rejects(
      command.run(["generate", "--kind", "tiny-llama", "--out", "x", "--size", "2"]),
      UsageError,
    );
    await assert.rejects(command.run(["frobnicate"]), UsageError);
    await assert.rejects(command.run([]), UsageError);
  });

  it("writes a manifest beside a GGUF and verifies it, refusing a changed file", async () => {
    // prepare
    const gguf = join(folder, "manifested", "model.gguf");
    await capture().command.run(["generate", "--kind", "tiny-llama", "--out", gguf]);
    const { command, stdout } = capture();

    // act
    const writeCode = await command.run([
      "manifest",
      gguf,
      "--source",
      "generated:tiny-llama",
      "--revision",
      "seed42",
    ]);
    const verifyCode = await command.run(["manifest", gguf, "--verify"]);

    // assert
    assert.equal(writeCode, 0);
    assert.equal(verifyCode, 0);
    const manifest = JSON.parse(
      await readFile(join(folder, "manifested", "model-manifest.json"), "utf8"),
    ) as {
      sha256: string;
      source: string;
    };
    assert.equal(manifest.sha256, await sha256File(gguf));
    assert.equal(manifest.source, "generated:tiny-llama");
    assert.match(stdout(), /^ok: /m);
    await appendFile(gguf, "x");
    await assert.rejects(command.run(["manifest", gguf, "--verify"]), ModelManifestMismatchError);
  });

  it("requires exactly one GGUF path for manifest", async () => {
    const { command } = capture();

    await assert.rejects(command.run(["manifest"]), UsageError);
    await assert.rejects(command.run(["manifest", "a.gguf", "b.gguf"]), UsageError);
  });

  it("packages a GGUF with its manifest as model.tar.gz and refuses to overwrite it", async () => {
    const gguf = join(folder, "packaged.gguf");
    await capture().command.run(["generate", "--kind", "tiny-llama", "--out", gguf]);
    const archive = join(folder, "model.tar.gz");
    const { command, stdout } = capture();

    const code = await command.run([
      "package",
      gguf,
      "--out",
      archive,
      "--source",
      "generated",
      "--revision",
      "r1",
    ]);

    assert.equal(code, 0);
    assert.match(stdout(), /wrote .*model\.tar\.gz/);
    const listed = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n").sort();
    assert.deepEqual(listed, ["model-manifest.json", "packaged.gguf"]);
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", archive, "model-manifest.json"], { encoding: "utf8" }),
    );
    assert.equal(manifest.sha256, await sha256File(gguf));
    await assert.rejects(capture().command.run(["package", gguf, "--out", archive]), UsageError);
  });
});
