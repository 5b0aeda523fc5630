import type { DemoObject } from "./readDemoInputs.js";

/**
 * The demo's batch file at `lines` lines: the sample object's lines over and over, each repeat's
 * work items under ids of their own (`DOC-900` the first time, `DOC-900-r2` the second, …) so each
 * line stands for its own item; a line that is not a JSON object with an id is repeated as written
 * (it stays a rejected line). An object of `lines` lines or more is returned as it is.
 *
 * @example
 * buildDemoBatch({ key: "incoming/documents.jsonl", body, lines: 24 }, 300).lines; // 300
 */
export function buildDemoBatch(object: DemoObject, lines: number): DemoObject {
  const source = object.body.split("\n").filter((line) => line.trim() !== "");
  if (source.length === 0 || source.length >= lines) return object;
  const out: string[] = [];
  for (let index = 0; index < lines; index++) {
    const line = source[index % source.length] ?? "";
    const repeat = Math.floor(index / source.length) + 1;
    out.push(repeat === 1 ? line : withIdSuffix(line, `r${repeat}`));
  }
  return { key: object.key, body: `${out.join("\n")}\n`, lines };
}

/**
 * `line` with `-<suffix>` added to its work item's id; a line that is not a JSON object with a
 * string id (meant to be rejected, or to stand as written) comes back unchanged.
 */
export function withIdSuffix(line: string, suffix: string): string {
  let item: unknown;
  try {
    item = JSON.parse(line);
  } catch (error) {
    if (error instanceof SyntaxError) return line;
    throw error;
  }
  if (typeof item !== "object" || item === null || Array.isArray(item)) return line;
  const { id } = item as { id?: unknown };
  if (typeof id !== "string") return line;
  return JSON.stringify({ ...item, id: `${id}-${suffix}` });
}
