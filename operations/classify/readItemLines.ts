import { type JsonNode, JsonTextError, parseJsonText } from "../../contract/wire/index.js";
import type { WorkItemInput } from "../../functions/pipeline/index.js";

/**
 * The non-blank lines of a work-item JSONL file as the pipeline core's inputs (origin: the file
 * and its 1-based line), read by the core exactly as it reads the queue's messages. A work item
 * without a `policy` field gets `policy` (the `--policy` of `decisions classify`), written in
 * front of its other fields so the rest of its text (its state) stays as written.
 */
export function readItemLines(text: string, policy: string): WorkItemInput[] {
  const inputs: WorkItemInput[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    inputs.push({ body: withPolicy(line, policy), origin: { kind: "file", line: index + 1 } });
  });
  return inputs;
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
