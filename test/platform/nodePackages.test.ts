/**
 * One Node.js 22 per platform from optional packages: package.json and the lock name one package for
 * each of linux-x64, linux-arm64, darwin-arm64 and darwin-x64, and `npm ci` from this lock, asked as
 * each platform would (`--os`, `--cpu`, dry run, offline), installs exactly that one of all the
 * packages that carry a `node` binary — so node_modules/.bin/node, first on every npm script's PATH,
 * is a Node.js for the machine it is on.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MINIMUM_NODE_MAJOR, NODE_PACKAGES } from "../../bin/nodeRequirement.js";
import { npmEnvironment } from "../support/npmEnvironment.js";

const ROOT = new URL("../../", import.meta.url).pathname;

interface LockEntry {
  version: string;
  os?: string | string[];
  cpu?: string | string[];
  bin?: Record<string, string>;
  optional?: boolean;
  dev?: boolean;
}

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};

/** Every package in the lock that links a `node` binary into node_modules/.bin. */
const nodeBinaryPackages = Object.entries(lock.packages)
  .filter(([path, entry]) => path.startsWith("node_modules/") && entry.bin?.node !== undefined)
  .map(([path]) => path.slice("node_modules/".length));

describe("the Node.js packages in package.json and the lock", () => {
  it("lists each platform's package as an optional dependency, and no other package that carries `node`", () => {
    assert.deepEqual(Object.keys(pkg.optionalDependencies ?? {}).sort(), Object.values(NODE_PACKAGES).sort());
    assert.deepEqual(nodeBinaryPackages.sort(), Object.values(NODE_PACKAGES).sort());
    for (const name of Object.values(NODE_PACKAGES)) {
      assert.equal(pkg.dependencies?.[name], undefined, `${name} is not a required dependency`);
      assert.equal(pkg.devDependencies?.[name], undefined, `${name} is not a required dev dependency`);
    }
  });

  for (const [platform, name] of Object.entries(NODE_PACKAGES)) {
    it(`locks ${name} as an optional Node.js ${MINIMUM_NODE_MAJOR} for ${platform} only`, () => {
      const entry = lock.packages[`node_modules/${name}`];
      assert.ok(entry !== undefined, `${name} is in the lock`);
      const [os, cpu] = platform.split("-");
      assert.deepEqual([entry.os, entry.cpu], [os, cpu]);
      assert.equal(entry.optional, true);
      assert.equal(entry.dev, undefined);
      assert.equal(entry.bin?.node, "bin/node");
      assert.equal(entry.version, pkg.optionalDependencies?.[name], "pinned exactly");
      assert.equal(Number.parseInt(entry.version, 10), MINIMUM_NODE_MAJOR, `${name}@${entry.version}`);
    });
  }
});

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
