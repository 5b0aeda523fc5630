/**
 * Positions inside a parsed YAML document: the node at a field path, the field path at an
 * offset, and the offset of a character inside a scalar's value (for CEL errors).
 */
import { type Document, isMap, isPair, isScalar, isSeq, type Node, type Scalar } from "yaml";

/** Where a field path points: the offset of its key or value node, or of the nearest ancestor that exists. */
export interface YamlLocation {
  offset: number;
  /** The scalar found at the full path, if it is one (for offsets inside its value). */
  scalar?: Scalar;
}

/**
 * The node at `path`. With `key` the location of the last segment's key (for unknown or
 * misspelt keys); a path that runs past the document (a missing field) gives its deepest existing
 * ancestor.
 */
export function locatePath(document: Document, path: readonly PropertyKey[], key = false): YamlLocation {
  let node: unknown = document.contents;
  let offset = rangeStart(node) ?? 0;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) return { offset };
      if (last && key) return { offset: rangeStart(pair.key) ?? offset };
      node = pair.value;
      offset = rangeStart(node) ?? rangeStart(pair.key) ?? offset;
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment];
      if (item === undefined) return { offset };
      node = item;
      offset = rangeStart(node) ?? offset;
    } else {
      return { offset };
    }
  }
  return isScalar(node) ? { offset, scalar: node } : { offset };
}

/** The field path of the deepest node whose range holds `offset` (for YAML errors, which carry only offsets). */
export function pathAtOffset(document: Document, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  let node: unknown = document.contents;
  for (;;) {
    if (isMap(node)) {
      const pair = node.items.find((item) => within(item.key, offset) || within(item.value, offset));
      if (pair === undefined || !isScalar(pair.key)) return path;
      path.push(String(pair.key.value));
      if (!within(pair.value, offset)) return path;
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => within(item, offset));
      if (index < 0) return path;
      path.push(index);
      node = node.items[index];
    } else {
      return path;
    }
  }
}

/**
 * The source offset of character `index` of a scalar's value, when the scalar's source spells its
 * value character for character (plain or quoted on one line without escapes, or a literal `|`
 * block); otherwise the scalar's start.
 */
export function offsetInScalar(text: string, scalar: Scalar, index: number): number {
  const [start, end] = scalar.range ?? [0, 0];
  const value = String(scalar.value);
  const raw = text.slice(start, end);
  switch (scalar.type) {
    case "PLAIN":
      return raw === value ? start + index : start;
    case "QUOTE_DOUBLE":
    case "QUOTE_SINGLE":
      return raw.slice(1, -1) === value ? start + 1 + index : start;
    case "BLOCK_LITERAL":
      return offsetInLiteralBlock(raw, value, index, start);
    default:
      return start;
  }
}

/** A `|` block: the value's lines are the source's lines after the header, less the block's indentation. */
function offsetInLiteralBlock(raw: string, value: string, index: number, start: number): number {
  const header = raw.indexOf("\n");
  if (header < 0) return start;
  const sourceLines = raw.slice(header + 1).split("\n");
  const indent = Math.min(
    ...sourceLines.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length),
  );
  const before = value.slice(0, index).split("\n");
  const lineIndex = before.length - 1;
  const column = before[lineIndex]?.length ?? 0;
  const valueLine = value.split("\n")[lineIndex] ?? "";
  const sourceLine = sourceLines[lineIndex];
  if (!Number.isFinite(indent) || sourceLine === undefined || sourceLine.slice(indent) !== valueLine)
    return start;
  let offset = start + header + 1;
  for (let line = 0; line < lineIndex; line += 1) offset += (sourceLines[line]?.length ?? 0) + 1;
  return offset + indent + column;
}

function rangeStart(node: unknown): number | undefined {
  if (isPair(node)) return rangeStart(node.key);
  const range = (node as Node | null | undefined)?.range;
  return range?.[0];
}

function within(node: unknown, offset: number): boolean {
  const range = (node as Node | null | undefined)?.range;
  return range !== undefined && range !== null && offset >= range[0] && offset < range[2];
}
