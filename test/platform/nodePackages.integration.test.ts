/**
 * `npm ci` from this lock, asked as each platform would (`--os`, `--cpu`, dry run, offline), installs
 * exactly that platform's one of all the packages that carry a `node` binary. npm runs as a process
 * here, so this is part of `npm test`, not the unit run (nodePackages.test.ts reads the files).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NODE_PACKAGES } from "../../bin/nodeRequirement.js";
import { npmEnvironment } from "../support/npmEnvironment.js";
import { nodeBinaryPackages, pkg } from "./nodePackagesOfLock.js";

const ROOT = new URL("../../", import.meta.url).pathname;

describe("npm ci from this lock, on each platform (dry run)", () => {
  let folder: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), "node-packages-"));
    copyFileSync(join(ROOT, "package.json"), join(folder, "package.json"));
    copyFileSync(join(ROOT, "package-lock.json"), join(folder, "package-lock.json"));
  });

  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  /** The `node`-carrying packages that `npm ci` would add for the platform, with their versions. */
  function nodePackagesInstalledFor(os: string, cpu: string): string[] {
    const run = spawnSync(
      "npm",
      [
        "ci",
        "--dry-run",
        "--offline",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        // The output parsed below is npm's notice level, whatever a .npmrc says.
        "--loglevel=notice",
        `--os=${os}`,
        `--cpu=${cpu}`,
      ],
      // Run under `npm run -s` the inherited npm_config_loglevel=silent would empty the output read below.
      { cwd: folder, encoding: "utf8", env: npmEnvironment(process.env) },
    );
    assert.equal(run.status, 0, run.stderr);
    const added = [...run.stdout.matchAll(/^add (\S+) (\S+)$/gm)].map((m) => ({ name: m[1], version: m[2] }));
    assert.ok(added.length > 100, `npm listed what it would add:\n${run.stdout}`);
    return added
      .filter((a) => nodeBinaryPackages.includes(a.name ?? ""))
      .map((a) => `${a.name}@${a.version}`);
  }

  for (const [platform, name] of Object.entries(NODE_PACKAGES)) {
    it(`installs only ${name} on ${platform}`, () => {
      const [os = "", cpu = ""] = platform.split("-");
      assert.deepEqual(nodePackagesInstalledFor(os, cpu), [`${name}@${pkg.optionalDependencies?.[name]}`]);
    });
  }

  it("installs none on a platform without a package (win32-x64), where the machine's Node.js is used", () => {
    assert.deepEqual(nodePackagesInstalledFor("win32", "x64"), []);
  });
});
