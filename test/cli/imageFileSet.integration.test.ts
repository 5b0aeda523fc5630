/**
 * Defect 4 of issue 7: in the file set the CPU image ships, `decisions`, `decisions help` and every
 * command that help lists must run (they failed with ERR_MODULE_NOT_FOUND when the CLI imported
 * lab/, which the image does not ship). The file set is rebuilt from adapter/Dockerfile's own
 * COPY lines, with only the production dependencies the image installs.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { COMMAND_REGISTRY } from "../../cli/commandRegistry.js";
import { buildImageFileSet, type ImageFileSet } from "../support/imageFileSet.js";

describe("the decisions command in the CPU image's file set", () => {
  let image: ImageFileSet;

  before(async () => {
    image = await buildImageFileSet("adapter/Dockerfile");
  });

  after(() => {
    image?.dispose();
  });

  /** Runs the image's ENTRYPOINT (`node /app/bin/decisions.js`) with the arguments, in its WORKDIR. */
  function decisions(...args: string[]): { status: number | null; stdout: string; stderr: string } {
    const run = spawnSync(process.execPath, [join(image.app, "bin", "decisions.js"), ...args], {
      cwd: image.app,
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  }

  /** The command names `decisions help` lists. */
  function listed(helpText: string): string[] {
    const section = helpText.split("commands:\n")[1]?.split("\n\n")[0] ?? "";
    return section
      .split("\n")
      .map((line) => /^ {2}(\S+) {2}/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
  }

  it("prints the usage for `decisions` alone (exit code 2) and for `decisions help` (exit code 0)", () => {
    const bare = decisions();
    const help = decisions("help");

    assert.equal(bare.status, 2, bare.stderr);
    assert.match(bare.stderr, /^usage: decisions <command>/);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: decisions <command>/);
    assert.doesNotMatch(`${bare.stderr}${help.stderr}`, /ERR_MODULE_NOT_FOUND/);
  });

  it("lists serve and the commands whose parts the image ships, not bench, saying why", () => {
    const help = decisions("help");

    const names = listed(help.stdout);

    assert.ok(names.includes("serve"), help.stdout);
    assert.ok(!names.includes("bench"), help.stdout);
    assert.match(help.stdout, /not installed here: .*\bbench \(needs [^)]*\blab\/[,)]/);
    for (const name of names) {
      assert.ok(
        COMMAND_REGISTRY.some((entry) => entry.name === name),
        name,
      );
    }
  });

  it("runs every listed command with --help", () => {
    const names = listed(decisions("help").stdout);
    for (const needed of ["serve", "models", "schema", "build-llama"])
      assert.ok(names.includes(needed), names.join(", "));

    for (const name of names) {
      const run = decisions(name, "--help");

      assert.equal(run.status, 0, `${name} --help: ${run.stderr}`);
      assert.match(run.stdout, /usage/i, name);
      assert.equal(run.stderr, "", name);
    }
  });

  it("refuses an unlisted command with a message naming what is missing (exit code 2)", () => {
    const run = decisions("bench", "--quick");

    assert.equal(run.status, 2);
    assert.match(run.stderr, /"bench" is not available in this installation: it needs [^\n]*\blab\//);
    assert.doesNotMatch(run.stderr, /ERR_MODULE_NOT_FOUND/);
  });

  it("prints help without loading any command module", () => {
    // prepare: every command module of the image fails as soon as it is imported
    const commands = join(image.app, "dist", "cli", "commands");
    const modules = readdirSync(commands).filter((file) => file.endsWith(".js"));
    assert.ok(modules.includes("serveCommand.js"), modules.join(", "));
    for (const file of modules)
      writeFileSync(join(commands, file), 'throw new Error("a command module was loaded");\n');

    // act
    const help = decisions("help");

    // assert
    assert.equal(help.status, 0, help.stderr);
    assert.ok(listed(help.stdout).includes("serve"), help.stdout);
  });
});
