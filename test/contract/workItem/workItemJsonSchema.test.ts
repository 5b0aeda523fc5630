import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { WorkItemSchema } from "../../../contract/workItem/WorkItemSchema.js";
import {
  WORK_ITEM_SCHEMA_FILE,
  WORK_ITEM_SCHEMA_ID,
  workItemJsonSchema,
} from "../../../contract/workItem/workItemJsonSchema.js";

const ROOT = new URL("../../../", import.meta.url);

describe("workItemJsonSchema", () => {
  it("is committed as generated (node --import tsx lab/scripts/writeWireSchemas.ts rewrites it)", () => {
    const committed = JSON.parse(readFileSync(new URL(WORK_ITEM_SCHEMA_FILE, ROOT), "utf8"));

    assert.deepEqual(committed, workItemJsonSchema());
  });

  it("states the zod schema's fields, required ones and closed object, at the front door's path", () => {
    const schema = workItemJsonSchema() as {
      $id: string;
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };

    assert.equal(schema.$id, WORK_ITEM_SCHEMA_ID);
    assert.deepEqual(Object.keys(schema.properties), Object.keys(WorkItemSchema.shape));
    assert.deepEqual(
      schema.required,
      Object.entries(WorkItemSchema.shape)
        .filter(([, field]) => !field.safeParse(undefined).success)
        .map(([name]) => name),
    );
    assert.equal(
      schema.additionalProperties,
      false,
      "unknown fields are refused, as zod's strictObject does",
    );
  });
});
