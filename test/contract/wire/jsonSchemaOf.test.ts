import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { jsonSchemaOf, WIRE_SCHEMA_NAMES } from "../../../contract/wire/index.js";

const SCHEMAS = new URL("../../../contract/schemas/", import.meta.url);
const REGENERATE = "run `node --import tsx lab/scripts/writeWireSchemas.ts` and commit contract/schemas/";

describe("jsonSchemaOf", () => {
  it("publishes draft 2020-12 schemas that close the request objects and require their fields", () => {
    const systemOne = jsonSchemaOf("systemone");
    assert.equal(systemOne.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.deepEqual(systemOne.required, ["state", "questions"]);
    assert.equal(systemOne.additionalProperties, false);
    const semIf = JSON.stringify(jsonSchemaOf("semif"));
    assert.match(semIf, /"required":\["decision"\]/);
    assert.match(semIf, /"required":\["decisions"\]/);
    assert.match(semIf, /"minItems":2/);
    assert.match(JSON.stringify(jsonSchemaOf("chat")), /"maxItems":256/);
  });

  it("matches the committed copies under contract/schemas/, one file per name and no other", async () => {
    const files = (await readdir(SCHEMAS)).filter((file) => file.endsWith(".schema.json")).sort();
    // The work item's schema sits beside them (the front door's; test/contract/workItem checks it).
    const expected = [...WIRE_SCHEMA_NAMES.map((name) => `${name}.schema.json`), "work-item.schema.json"];
    assert.deepEqual(files, expected.sort(), REGENERATE);
    for (const name of WIRE_SCHEMA_NAMES) {
      const committed: unknown = JSON.parse(await readFile(new URL(`${name}.schema.json`, SCHEMAS), "utf8"));
      assert.deepEqual(
        committed,
        jsonSchemaOf(name),
        `contract/schemas/${name}.schema.json is stale: ${REGENERATE}`,
      );
    }
  });
});
