import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PolicyCatalogueError, readPolicyCatalogue } from "../../../infra/index.js";
import { PROJECT_ROOT } from "../synthDecisionsStack.js";

describe("readPolicyCatalogue", () => {
  it("lists the repository's policies with the events they map", () => {
    const catalogue = readPolicyCatalogue(join(PROJECT_ROOT, "policies"));

    const incident = catalogue.find((policy) => policy.name === "incident-priority");
    assert.ok(incident !== undefined);
    assert.deepEqual(incident.events, [{ source: "acme.monitoring", detailType: "Incident Opened" }]);
  });

  it("stops on a policy that would not load, and on a folder without policies", () => {
    const folder = mkdtempSync(join(tmpdir(), "policy-catalogue-"));
    try {
      assert.throws(() => readPolicyCatalogue(folder), /holds no \*\.yaml policy/);
      assert.throws(() => readPolicyCatalogue(folder), PolicyCatalogueError);
      writeFileSync(join(folder, "broken.yaml"), "name: broken\nquestions: 7\n");
      assert.throws(
        () => readPolicyCatalogue(folder),
        (error: unknown) =>
          error instanceof PolicyCatalogueError &&
          /Invalid policy: \d+ problems?\n {2}.*broken\.yaml:\d+:\d+/.test(error.message),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
