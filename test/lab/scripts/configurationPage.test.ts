import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DECIDE_SETTINGS } from "../../../contract/index.js";
import { configurationPage } from "../../../lab/scripts/configurationPage.js";

const PAGE = new URL("../../../docs/configuration.md", import.meta.url);

describe("docs/configuration.md", () => {
  it("is what the settings kit writes (run lab/scripts/writeConfigurationPage.ts after changing a setting)", () => {
    const committed = readFileSync(PAGE, "utf8");

    const written = configurationPage();

    assert.equal(
      committed,
      written,
      "docs/configuration.md is stale: run `node --import tsx lab/scripts/writeConfigurationPage.ts`",
    );
  });

  it("has a table per entry point, each row from a kit entry", () => {
    const page = configurationPage();

    for (const heading of [
      "## The server (`decisions serve`)",
      "## The decide function",
      "## The ingest function",
      "## The CDK app's context knobs",
    ]) {
      assert.ok(page.includes(`\n${heading}\n`), heading);
    }
    assert.ok(
      page.includes(`| \`MAX_CONCURRENT_GROUPS\` | \`4\` | ${DECIDE_SETTINGS.maxConcurrentGroups.doc} |`),
    );
    assert.match(page, /\| `maxConcurrentGroups` \| `4` \| `MAX_CONCURRENT_GROUPS` \| /);
    assert.match(page, /\| `OUTCOMES_TABLE` \| required \| /);
  });
});
