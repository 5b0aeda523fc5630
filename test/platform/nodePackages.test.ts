/**
 * One Node.js 22 per platform from optional packages: package.json and the lock name one package for
 * each of linux-x64, linux-arm64, darwin-arm64 and darwin-x64, and `npm ci` from this lock, asked as
 * each platform would (`--os`, `--cpu`, dry run, offline), installs exactly that one of all the
 * packages that carry a `node` binary — so node_modules/.bin/node, first on every npm script's PATH,
 * is a Node.js for the machine it is on. `npm ci` runs as a process in nodePackages.integration.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MINIMUM_NODE_MAJOR, NODE_PACKAGES } from "../../bin/nodeRequirement.js";
import { lock, nodeBinaryPackages, pkg } from "./nodePackagesOfLock.js";

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
