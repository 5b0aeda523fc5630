/** The order `npm test` starts its files in, and the split of `npm run test:unit` into processes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { tapCounts } from "./runUnitTests.js";
import {
  findTestFiles,
  heaviestFirst,
  isUnitGroupName,
  readWeights,
  sharedProcessWeights,
  splitEvenly,
  unitGroups,
  weightOf,
} from "./testOrder.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("the order of npm test's files", () => {
  it("starts recorded heavy files first, then model and integration tests, then unit tests", () => {
    const files = ["test/a.test.ts", "test/b.integration.test.ts", "test/c.model.test.ts", "test/d.test.ts"];

    const order = heaviestFirst(files, { "test/d.test.ts": 120 });

    assert.deepEqual(order, [
      "test/d.test.ts",
      "test/b.integration.test.ts",
      "test/c.model.test.ts",
      "test/a.test.ts",
    ]);
  });

  it("splits files into lists of nearly equal weight, each heaviest first", () => {
    const weights = { "test/a.test.ts": 10, "test/b.test.ts": 6, "test/c.test.ts": 5, "test/d.test.ts": 1 };

    const lists = splitEvenly(Object.keys(weights), 2, weights);

    assert.deepEqual(lists, [
      ["test/a.test.ts", "test/d.test.ts"],
      ["test/b.test.ts", "test/c.test.ts"],
    ]);
    assert.deepEqual(
      lists.map((list) => list.reduce((sum, file) => sum + weightOf(file, weights), 0)),
      [11, 11],
    );
  });

  it("keeps the files of a group in one list, weighing the group as its files together", () => {
    const weights = {
      "test/a.test.ts": 10,
      "test/infra/b.test.ts": 6,
      "test/infra/c.test.ts": 5,
      "test/d.test.ts": 1,
    };
    const groupOf = (file: string) => (file.startsWith("test/infra/") ? "infra" : undefined);

    const lists = splitEvenly(Object.keys(weights), 2, weights, groupOf);

    assert.deepEqual(lists, [
      ["test/infra/b.test.ts", "test/infra/c.test.ts"],
      ["test/a.test.ts", "test/d.test.ts"],
    ]);
  });

  it("groups the unit files: a shared-process folder whole, the others split evenly, each weighed", () => {
    const weights = {
      "test/a.test.ts": 10,
      "test/infra/b.test.ts": 6,
      "test/infra/c.test.ts": 5,
      "test/d.test.ts": 4,
      "test/e.test.ts": 3,
      "unit group 2 of 2": 1.5,
    };
    const sharedFolderOf = (file: string) => (file.startsWith("test/infra/") ? "test/infra/" : undefined);

    const groups = unitGroups(
      Object.keys(weights).filter((key) => key.endsWith(".test.ts")),
      2,
      weights,
      sharedFolderOf,
    );

    assert.deepEqual(groups, [
      {
        name: "unit group test/infra/",
        files: ["test/infra/b.test.ts", "test/infra/c.test.ts"],
        seconds: 11,
      },
      { name: "unit group 1 of 2", files: ["test/a.test.ts"], seconds: 10 },
      // Recorded as a group: its own weight, not its files' sum (7).
      { name: "unit group 2 of 2", files: ["test/d.test.ts", "test/e.test.ts"], seconds: 1.5 },
    ]);
    assert.ok(groups.every((group) => isUnitGroupName(group.name)));
  });

  it("scales the unit files' own weights to what their groups cost in shared processes", () => {
    const weights = {
      "test/a.test.ts": 10,
      "test/d.test.ts": 6,
      "test/infra/b.test.ts": 8,
      "test/infra/c.test.ts": 12,
      "unit group 1 of 2": 3,
      "unit group 2 of 2": 5,
      "unit group test/infra/": 30,
    };
    const sharedFolderOf = (file: string) => (file.startsWith("test/infra/") ? "test/infra/" : undefined);
    const files = ["test/a.test.ts", "test/d.test.ts", "test/infra/b.test.ts", "test/infra/c.test.ts"];

    assert.deepEqual(sharedProcessWeights(files, weights, sharedFolderOf), {
      "test/a.test.ts": 5,
      "test/d.test.ts": 3,
      "test/infra/b.test.ts": 12,
      "test/infra/c.test.ts": 18,
    });
    // No group recorded: the files' own weights.
    assert.deepEqual(sharedProcessWeights(["test/a.test.ts"], { "test/a.test.ts": 10 }, sharedFolderOf), {
      "test/a.test.ts": 10,
    });
  });

  it("records weights only for test files that exist", () => {
    const files = new Set(findTestFiles(ROOT));

    const stale = Object.keys(readWeights(ROOT)).filter((file) => !files.has(file) && !isUnitGroupName(file));

    assert.deepEqual(stale, [], "remove these from test/testWeights.json (or record the weights again)");
  });

  it("reads the counts at the end of node's TAP report", () => {
    const tap = "ok 1 - x\n# tests 5\n# suites 1\n# pass 3\n# fail 1\n# cancelled 0\n# skipped 1\n";

    assert.deepEqual(tapCounts(tap), { pass: 3, fail: 1, skipped: 1, cancelled: 0 });
  });
});
