import type { JsonNode, JsonPathSegment } from "./types.js";

/**
 * The node at `path` inside `node` (an object key or an array index per step), or undefined when
 * there is none. Of a key written twice, the last is found (the one `JSON.parse` keeps).
 *
 * @example jsonNodeAt(parseJsonText('{"a": [1, {"b": 2.0}]}'), ["a", 1, "b"])?.kind === "number"
 */
export function jsonNodeAt(node: JsonNode, path: readonly JsonPathSegment[]): JsonNode | undefined {
  let current: JsonNode | undefined = node;
  for (const segment of path) {
    if (current === undefined) return undefined;
    if (current.kind === "array" && typeof segment === "number") current = current.items[segment];
    else if (current.kind === "object" && typeof segment === "string")
      current = current.members.findLast((member) => member.key === segment)?.value;
    else return undefined;
  }
  return current;
}
