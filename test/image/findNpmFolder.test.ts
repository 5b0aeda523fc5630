/**
 * The image test finds the machine's npm the same way whatever npm run it is started from: the
 * `npm_config_*` settings it inherits (`npm run -s`, an inherited prefix) do not reach `npm root -g`.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { findNpmFolder } from "./findNpmFolder.js";

describe("findNpmFolder", () => {
  it("finds npm's own folder, holding its package.json", async () => {
    const folder = await findNpmFolder(process.env);

    assert.ok(existsSync(join(folder, "package.json")), folder);
  });

  it("answers the same under inherited npm_config_* settings (npm run -s, a prefix)", async () => {
    const clean = await findNpmFolder(
      Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name))),
    );

    const inherited = await findNpmFolder({
      ...process.env,
      npm_config_loglevel: "silent",
      npm_config_prefix: "/nonexistent/prefix",
      NPM_CONFIG_GLOBAL: "true",
      npm_config_json: "true",
    });

    assert.equal(inherited, clean);
  });
});

describe("findNpmFolder under an npm run", () => {
  it("takes the folder of the npm that runs it (npm_execpath), whatever node is first on PATH", async () => {
    const npmFolder = mkdtempSync(join(tmpdir(), "decisions-npm-"));
    mkdirSync(join(npmFolder, "bin"));
    writeFileSync(join(npmFolder, "package.json"), '{"name":"npm","version":"0.0.0"}');
    writeFileSync(join(npmFolder, "bin", "npm-cli.js"), "");

    try {
      const folder = await findNpmFolder({
        ...process.env,
        npm_execpath: join(npmFolder, "bin", "npm-cli.js"),
        PATH: `/nonexistent/bin:${process.env.PATH ?? ""}`,
      });

      assert.equal(folder, npmFolder);
    } finally {
      rmSync(npmFolder, { recursive: true, force: true });
    }
  });
});
