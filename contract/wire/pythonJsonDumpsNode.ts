import { pythonFloatRepr } from "./pythonFloatRepr.js";
import { pythonJsonString } from "./pythonJsonString.js";
import type { JsonNode } from "./types.js";

const FLOAT_LITERAL = /[.eE]/;

/**
 * Serialises parsed JSON text exactly as Python's `json.dumps(json.loads(text), ensure_ascii=False)`
 * prints it: separators `", "` and `": "`, keys in written order, non-ASCII kept, strings escaped as
 * {@link pythonJsonString} does. A number literal with a fraction or exponent is a Python float
 * (`2.0` → `2.0`, `1e5` → `100000.0`, `-0.0` → `-0.0`, `1e400` → `Infinity`); any other is an exact
 * Python int (`-0` → `0`, `1180591620717411303424` as written).
 *
 * A node holding a repeated key (parsed with `onDuplicateKey`) is printed as Python would keep it:
 * the first position, the last value.
 *
 * @example pythonJsonDumpsNode(parseJsonText('{"2": 1e5, "a":[2.0]}')) === '{"2": 100000.0, "a": [2.0]}'
 */
export function pythonJsonDumpsNode(node: JsonNode): string {
  switch (node.kind) {
    case "string":
      return pythonJsonString(node.value);
    case "number":
      if (FLOAT_LITERAL.test(node.raw)) return pythonFloatRepr(Number(node.raw));
      return node.raw === "-0" ? "0" : node.raw;
    case "boolean":
      return node.value ? "true" : "false";
    case "null":
      return "null";
    case "array":
      return `[${node.items.map(pythonJsonDumpsNode).join(", ")}]`;
    case "object": {
      const last = new Map<string, JsonNode>();
      for (const member of node.members) last.set(member.key, member.value);
      const members = [...last].map(
        ([key, value]) => `${pythonJsonString(key)}: ${pythonJsonDumpsNode(value)}`,
      );
      return `{${members.join(", ")}}`;
    }
  }
}
