import { z } from "zod";
import { PolicySchema } from "./policySchema.js";

/** Where the published JSON Schema lives, relative to the repository root. */
export const POLICY_JSON_SCHEMA_PATH = "policies/policy.schema.json";

/**
 * The JSON Schema (draft 2020-12) of the policy format, generated from the zod schema, as
 * published in `policies/policy.schema.json` for editors (the YAML files point at it with a
 * `# yaml-language-server: $schema=./policy.schema.json` comment). It checks shape only; the
 * loader also checks CEL and cross-references.
 */
export function policyJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(PolicySchema, { io: "input", target: "draft-2020-12" }),
    title: "Decision policy",
  };
}

/** The schema file's exact text: 2-space JSON and a final newline. */
export function policyJsonSchemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}
