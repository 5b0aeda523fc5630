import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  describedFolders,
  FUNCTION_ENVIRONMENTS,
  functionEnvironmentTable,
  functionFolders,
  functionsReadme,
  subFolders,
} from "../../lab/scripts/architecture/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = new URL("../../functions/README.md", import.meta.url);

describe("functions/README.md", () => {
  it("has the environment table the settings kit writes (run lab/scripts/writeFunctionsReadme.ts after changing a setting)", () => {
    const committed = readFileSync(README, "utf8");

    const written = functionsReadme(committed, ROOT);

    assert.equal(
      committed,
      written,
      "functions/README.md is stale: run `node --import tsx lab/scripts/writeFunctionsReadme.ts`",
    );
  });

  it("describes every folder under functions/, and no folder that is not there", () => {
    const folders = subFolders(ROOT, "functions");

    const described = describedFolders(readFileSync(README, "utf8"));

    assert.deepEqual([...described].sort(), folders);
  });

  it("gives every function with a handler a row, each of the decide function's variables in it", () => {
    const table = functionEnvironmentTable(ROOT).join("\n");

    for (const folder of functionFolders(ROOT)) {
      assert.ok(FUNCTION_ENVIRONMENTS[folder] !== undefined, folder);
      assert.match(table, new RegExp(`^\\| \`${folder}/\` \\| `, "m"), folder);
    }
    for (const name of ["OUTCOMES_TABLE", "MAX_RECEIVE_COUNT", "STATE_ARCHIVE_BUCKET", "JOBS_TABLE"]) {
      assert.match(table, new RegExp(`^\\| \`decide/\` \\| .*\`${name}\``, "m"), name);
    }
  });

  it("reads the described folders from the list's items only", () => {
    const readme = "- `decide/` — the adapter\n  - `nested/` no\nsee `flow/`\n- `flow/` — flow control\n";

    assert.deepEqual(describedFolders(readme), ["decide", "flow"]);
  });
});
