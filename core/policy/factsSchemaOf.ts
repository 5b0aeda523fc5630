/**
 * The zod schema a work item's facts are checked with, built from a policy's declarations.
 */
import { z } from "zod";
import type { FactDeclaration } from "./types.js";

/**
 * A strict object schema: each declared fact with its type (and enum), required ones required,
 * optional ones optional or defaulted. Undeclared facts are rejected, not ignored: a misspelt
 * `legal_hlod: true` silently dropped would bypass the rule that reads `legal_hold`.
 */
export function factsSchemaOf(declarations: Readonly<Record<string, FactDeclaration>>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, fact] of Object.entries(declarations)) {
    const value = valueSchema(fact);
    if (fact.required) shape[name] = value;
    else if (fact.default !== undefined) shape[name] = value.default(structuredClone(fact.default) as never);
    else shape[name] = value.optional();
  }
  return z.strictObject(shape);
}

function valueSchema(fact: FactDeclaration): z.ZodType {
  const text = fact.enum === undefined ? z.string() : z.enum(fact.enum as [string, ...string[]]);
  switch (fact.type) {
    case "string":
      return text;
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "string-list":
      return z.array(text).max(1000);
  }
}
