import { formatFieldPath, type PathSegment } from "./fieldPath.js";
import type { Problem } from "./types.js";

/** What {@link inspectJsonText} found. */
export interface JsonTextInspection {
  /** Whether arrays and objects nest deeper than allowed (the scan stops there). */
  tooDeep: boolean;
  /** One problem per repeated object key, named by the object's path. */
  duplicateKeys: Problem[];
}

interface ObjectFrame {
  kind: "object";
  keys: Set<string>;
  key: string | undefined;
  awaitingKey: boolean;
}

interface ArrayFrame {
  kind: "array";
  index: number;
}

/**
 * Scans JSON text that `JSON.parse` has accepted for what `JSON.parse` hides: repeated object keys
 * (it keeps the last silently, so `{"billing": "a", "billing": "b"}` would lose a label) and nesting
 * deeper than `maxDepth` (which would exhaust the stack of recursive checks and serialisers).
 * It is iterative, so any depth is safe to scan.
 *
 * @param text JSON text already accepted by `JSON.parse`; other text gives unspecified results.
 * @param maxDepth most nested arrays/objects; the top-level value is depth 1.
 */
export function inspectJsonText(text: string, maxDepth: number): JsonTextInspection {
  const stack: Array<ObjectFrame | ArrayFrame> = [];
  const duplicateKeys: Problem[] = [];
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x22 /* " */) {
      const end = closingQuote(text, index);
      const top = stack.at(-1);
      if (top?.kind === "object" && top.awaitingKey) {
        const raw = text.slice(index, end + 1);
        const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) {
          duplicateKeys.push({
            field: formatFieldPath(pathOf(stack)),
            message: `duplicate key ${JSON.stringify(key)}`,
          });
        }
        top.keys.add(key);
        top.key = key;
        top.awaitingKey = false;
      }
      index = end + 1;
      continue;
    }
    if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return { tooDeep: true, duplicateKeys };
      stack.push(
        code === 0x7b
          ? { kind: "object", keys: new Set(), key: undefined, awaitingKey: true }
          : { kind: "array", index: 0 },
      );
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      stack.pop();
    } else if (code === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.kind === "object") top.awaitingKey = true;
      else if (top?.kind === "array") top.index += 1;
    }
    index += 1;
  }
  return { tooDeep: false, duplicateKeys };
}

/** Index of the quote closing the string that opens at `start` (escaped quotes skipped). */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1) {
    let backslashes = 0;
    for (let before = end - 1; text.charCodeAt(before) === 0x5c; before -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length - 1;
}

/** Path of the innermost container: each frame's position inside the one around it. */
function pathOf(stack: ReadonlyArray<ObjectFrame | ArrayFrame>): PathSegment[] {
  const path: PathSegment[] = [];
  for (let depth = 0; depth < stack.length - 1; depth += 1) {
    const frame = stack[depth];
    if (frame === undefined) break;
    path.push(frame.kind === "object" ? (frame.key ?? "") : frame.index);
  }
  return path;
}
