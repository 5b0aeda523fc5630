import type { JsonNode, JsonObject, JsonValue } from "./types.js";

/**
 * The plain JavaScript value of parsed JSON text, the same as `JSON.parse` gives for that text:
 * numbers become doubles (`2.0` → `2`), integer-like keys move to the front of their object, a
 * repeated key keeps its first position and its last value, `__proto__` is an ordinary own key.
 * For checks that care neither about key order nor number spelling.
 */
export function jsonValueOf(node: JsonNode): JsonValue {
  switch (node.kind) {
    case "string":
    case "boolean":
      return node.value;
    case "number":
      return Number(node.raw);
    case "null":
      return null;
    case "array":
      return node.items.map(jsonValueOf);
    case "object": {
      const value: JsonObject = {};
      for (const member of node.members) {
        // Assigning "__proto__" would set the prototype; JSON.parse makes it an own property.
        Object.defineProperty(value, member.key, {
          value: jsonValueOf(member.value),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
      return value;
    }
  }
}
