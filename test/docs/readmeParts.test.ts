/** README.md's picture of the parts names every part (top-level folder) of the table of parts. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { PARTS } from "../../lab/scripts/architecture/index.js";

const README = new URL("../../README.md", import.meta.url);

describe("README.md's parts picture", () => {
  it("names every part of the table of parts as `<folder>/`", () => {
    const page = readFileSync(README, "utf8");
    const heading = page.indexOf("## The parts");
    const picture = /```\n([\s\S]*?)```/.exec(page.slice(heading))?.[1] ?? "";

    const missing = PARTS.map((part) => part.name).filter((name) => !picture.includes(`${name}/`));

    assert.ok(heading >= 0 && picture.length > 0, "README.md has a picture under '## The parts'");
    assert.deepEqual(missing, [], "name these parts in README.md's picture");
  });
});
