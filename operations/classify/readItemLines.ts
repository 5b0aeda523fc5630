import { type JsonNode, JsonTextError, parseJsonText } from "../../contract/wire/index.js";
import { decodeStrictly } from "../../core/common/decodeStrictly.js";
import type { WorkItemInput } from "../../core/pipeline/index.js";

/**
 * Strict UTF-8: bytes that are not UTF-8 throw rather than becoming U+FFFD (two ids differing only
 * in invalid bytes would read as one); a byte order mark is kept, as `readFile(…, "utf8")` keeps it.
 */

/**
 * The non-blank lines of a work-item JSONL file as the pipeline core's inputs (origin: the file
 * and its 1-based line), read by the core exactly as it reads the queue's messages. A work item
 * without a `policy` field gets `policy` (the `--policy` of `decisions classify`), written in
 * front of its other fields so the rest of its text (its state) stays as written.
 *
 * Given the file's bytes, each line is split on the newline byte and decoded on its own, strictly:
 * a line that is not valid UTF-8 is an input the core rejects ("line N: not valid UTF-8"), and the
 * lines around it are read as usual.
 */
export function readItemLines(file: Uint8Array | string, policy: string): WorkItemInput[] {
  const inputs: WorkItemInput[] = [];
  linesOf(file).forEach((raw, index) => {
    const origin = { kind: "file" as const, line: index + 1 };
    const text = typeof raw === "string" ? raw : decodeStrictly(raw);
    if (text === undefined) {
      const reason = `line ${origin.line}: not valid UTF-8 (its bytes are refused, not replaced)`;
      inputs.push({ body: "", origin, unreadable: reason });
      return;
    }
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.trim() === "") return;
    inputs.push({ body: withPolicy(line, policy), origin });
  });
  return inputs;
}

/** The file's lines, split on `\n` (the newline byte): text as given, or each line's bytes. */
function linesOf(file: Uint8Array | string): (string | Uint8Array)[] {
  if (typeof file === "string") return file.split("\n");
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let at = file.indexOf(0x0a); at !== -1; at = file.indexOf(0x0a, start)) {
    lines.push(file.subarray(start, at));
    start = at + 1;
  }
  lines.push(file.subarray(start));
  return lines;
}

function withPolicy(line: string, policy: string): string {
  let root: JsonNode;
  try {
    root = parseJsonText(line);
  } catch (error) {
    // Left as it is: the core rejects it with the parser's own message.
    if (error instanceof JsonTextError) return line;
    throw error;
  }
  if (root.kind !== "object") return line;
  const keys = new Set(root.members.map((member) => member.key));
  if (keys.has("policy") || (keys.has("source") && keys.has("detail-type"))) return line;
  const field = `"policy": ${JSON.stringify(policy)}`;
  const open = root.start + 1;
  return root.members.length === 0
    ? `${line.slice(0, open)}${field}${line.slice(open)}`
    : `${line.slice(0, open)}${field}, ${line.slice(open)}`;
}
