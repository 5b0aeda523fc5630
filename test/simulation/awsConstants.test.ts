import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { AWS_CONSTANTS } from "../../simulation/index.js";

const PAGE = readFileSync(new URL("../../docs/simulation.md", import.meta.url), "utf8");

describe("the simulation's AWS constants", () => {
  it("are each cited from AWS documentation", () => {
    for (const [name, constant] of Object.entries(AWS_CONSTANTS)) {
      assert.match(constant.source, /^https:\/\/docs\.aws\.amazon\.com\//, `${name}'s source`);
    }
  });

  it("are listed in docs/simulation.md with their value and source, assumptions marked", () => {
    for (const [name, constant] of Object.entries(AWS_CONSTANTS)) {
      const row = PAGE.split("\n").find((line) => line.startsWith(`| ${name} |`));
      assert.ok(row !== undefined, `docs/simulation.md has a row for ${name}`);
      assert.ok(row.startsWith(`| ${name} | ${constant.value} |`), `${name}'s value in the page: ${row}`);
      assert.ok(row.includes(constant.source), `${name}'s source in the page`);
      assert.equal(
        row.includes("**assumption**"),
        "assumption" in constant,
        `${name} marked as an assumption or not`,
      );
    }
  });
});
