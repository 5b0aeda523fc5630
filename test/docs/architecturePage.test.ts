import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  architecturePage,
  blockMarkers,
  GeneratedBlockError,
  PARTS,
  replaceGeneratedBlock,
} from "../../lab/scripts/architecture/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = new URL("../../docs/architecture.md", import.meta.url);

describe("docs/architecture.md", () => {
  it("is what the table of parts and the entry points write (run lab/scripts/writeArchitecturePage.ts after changing them)", () => {
    const committed = readFileSync(PAGE, "utf8");

    const written = architecturePage(committed, ROOT);

    assert.equal(
      committed,
      written,
      "docs/architecture.md is stale: run `node --import tsx lab/scripts/writeArchitecturePage.ts`",
    );
  });

  it("has a row per part, each saying what it imports", () => {
    const page = readFileSync(PAGE, "utf8");

    for (const part of PARTS) assert.match(page, new RegExp(`^\\| \`${part.name}/\` \\| `, "m"), part.name);
    assert.match(
      page,
      /^\| `console\/` \| .* \| `contract\/` \(only `console\/web\/types\.ts` and `console\/web\/ItemHistory\.ts`: .*\) \|$/m,
    );
    assert.match(page, /`infra\/` \(only `cli\/commands\/preflightCommand\.ts`: /);
  });
});

describe("a generated block", () => {
  it("is replaced between its markers, the prose around it kept", () => {
    const { start, end } = blockMarkers("the list", "x.ts");
    const page = ["# Page", "before", start, "old line", end, "after", ""].join("\n");

    const written = replaceGeneratedBlock(page, "the list", "x.ts", ["- one", "- two"]);

    assert.equal(written, ["# Page", "before", start, "- one", "- two", end, "after", ""].join("\n"));
  });

  it("is refused when the page lacks its markers", () => {
    assert.throws(
      () => replaceGeneratedBlock("# Page\n", "the list", "x.ts", []),
      (error: unknown) => error instanceof GeneratedBlockError && error.block === "the list",
    );
  });
});
