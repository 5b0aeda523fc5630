/**
 * The parts import each other exactly as the table of parts (lab/scripts/architecture/parts.ts)
 * says — the table docs/architecture.md's part table is written from.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { PARTS, type Part, partFloors, partImportViolations } from "../../lab/scripts/architecture/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A repository of the given files in a temporary folder; removed by the returned function. */
function repository(files: Record<string, string>): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), "parts-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

describe("the table of parts", () => {
  it("lists every top-level folder and exactly the imports between parts the code makes", () => {
    const violations = partImportViolations(ROOT, PARTS);

    assert.deepEqual(
      violations,
      [],
      "change the code or lab/scripts/architecture/parts.ts (then write the page)",
    );
  });

  it("reports an import it does not allow, one outside its `only` files, an allowance unused, a folder without a row", () => {
    // prepare
    const { root, remove } = repository({
      "low/a.ts": "export const a = 1;\n",
      "low/b.ts": 'import type { c } from "../high/c.js";\nexport type B = typeof c;\n',
      "high/c.ts": 'import { a } from "../low/a.js";\nexport const c = a;\n',
      "high/d.ts": 'export const d = await import("../low/a.js");\n',
      "side/e.ts": "export const e = 1;\n",
      "stray/f.ts": "export const f = 1;\n",
    });
    const parts: Part[] = [
      { name: "low", what: "", imports: [] },
      { name: "high", what: "", imports: [{ part: "low", only: ["high/c.ts"] }, { part: "side" }] },
      { name: "side", what: "", imports: [] },
    ];

    try {
      // act
      const violations = partImportViolations(root, parts);

      // assert
      assert.deepEqual(violations, [
        "stray/ has no row in the table of parts",
        "high/d.ts imports low/a.js: of high/ only high/c.ts import low/",
        "low/b.ts imports high/c.js: low/ does not import high/",
        "high/ is listed as importing side/, but none of its files does",
      ]);
    } finally {
      remove();
    }
  });

  it("reports a cycle in the table and a row without a folder", () => {
    const { root, remove } = repository({ "a/x.ts": "", "b/y.ts": "" });
    const parts: Part[] = [
      { name: "a", what: "", imports: [{ part: "b", atRunTime: true }] },
      { name: "b", what: "", imports: [{ part: "a", atRunTime: true }] },
      { name: "gone", what: "", imports: [] },
    ];

    try {
      const violations = partImportViolations(root, parts);

      assert.deepEqual(violations, [
        "the table of parts names gone/, which is not a folder",
        "the table of parts has a cycle: a → b → a",
      ]);
    } finally {
      remove();
    }
  });

  it("puts each part one floor above the highest part it imports", () => {
    const parts: Part[] = [
      { name: "base", what: "", imports: [] },
      { name: "left", what: "", imports: [{ part: "base" }] },
      { name: "right", what: "", imports: [{ part: "base" }] },
      { name: "top", what: "", imports: [{ part: "left" }, { part: "base" }] },
      { name: "data", what: "", imports: [] },
      { name: "tests", what: "", imports: "any" },
    ];

    const floors = partFloors(parts);

    assert.deepEqual(floors, [["base"], ["left", "right"], ["top"]]);
  });
});
