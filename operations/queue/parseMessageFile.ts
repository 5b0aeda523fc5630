import { type JsonNode, JsonTextError, parseJsonText } from "../../contract/wire/index.js";
import { decodeStrictly } from "../../core/common/decodeStrictly.js";
import { stripByteOrderMark } from "../../core/common/stripByteOrderMark.js";
import { SQS_MAX_PAYLOAD_BYTES } from "./constants.js";
import type { MessageEntry, MessageFile, RefusedEntry } from "./types.js";

/** How an input file holds its messages. */
export type MessageFileFormat =
  /** JSON Lines: one message per non-blank line (work items, or events one per line). */
  | "lines"
  /** One JSON document: an object is one message; an array holds one message per element. */
  | "document";

/** Options of {@link parseMessageFile}. */
export interface ParseMessageFileOptions {
  format: MessageFileFormat;
  /** Largest body in UTF-8 bytes; a longer one is refused (`MessageTooLong`). Default {@link SQS_MAX_PAYLOAD_BYTES}. */
  maxMessageBytes?: number;
}

/**
 * Splits an input file into message bodies, each the JSON text exactly as written (key order and
 * number spelling reach the pipeline unchanged), and checks each with the wire module's strict
 * parser — the one the decide function reads bodies with — so a body the pipeline would refuse
 * as "not JSON" (a syntax error, a duplicate key) is reported here and never sent. Never throws.
 *
 * A byte order mark at the start of the file is dropped (see `stripByteOrderMark`). Given the
 * file's bytes, each line is decoded on its own, strictly: a line that is not UTF-8 is refused
 * (`InvalidUtf8`, with its line) rather than read with U+FFFD in place of its bytes (two ids that
 * differ only there would be sent as one); a `document` with such a line is refused whole.
 *
 * - `lines`: blank lines are skipped; a trailing `\r` is dropped; line numbers count every line.
 * - `document`: an object is one message (the text trimmed); an array gives one message per
 *   element (its text cut out of the document); anything else, or invalid JSON, is refused.
 */
export function parseMessageFile(input: string | Uint8Array, options: ParseMessageFileOptions): MessageFile {
  const maxBytes = options.maxMessageBytes ?? SQS_MAX_PAYLOAD_BYTES;
  const file: MessageFile = { messages: [], refused: [] };
  // Bytes are decoded line by line, strictly: a line that is not UTF-8 is refused, not replaced.
  const lines = typeof input === "string" ? input.split("\n") : decodeLines(input);
  const notUtf8 = lines.flatMap((line, index) => (line === undefined ? [index + 1] : []));
  if (options.format === "document" && notUtf8.length > 0) {
    file.refused.push(...notUtf8.map(invalidUtf8));
    return file;
  }
  // A byte order mark at the file's start is dropped, as ingest and the decide function drop it.
  const text = stripByteOrderMark(lines.map((line) => line ?? "").join("\n"));
  const accept = (entry: MessageEntry): void => {
    const bytes = Buffer.byteLength(entry.body, "utf8");
    if (bytes <= maxBytes) file.messages.push(entry);
    else
      file.refused.push({
        ...located(entry.line, entry.id),
        code: "MessageTooLong",
        message: `the message is ${bytes} bytes, more than the ${maxBytes} a message may have`,
      });
  };
  if (options.format === "lines") {
    text.split("\n").forEach((raw, index) => {
      const line = index + 1;
      if (lines[index] === undefined) {
        file.refused.push(invalidUtf8(line));
        return;
      }
      const body = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (body.trim() === "") return;
      const parsed = tryParse(body);
      if (parsed instanceof JsonTextError) {
        file.refused.push(invalidJson(line, `${parsed.reason} at column ${parsed.column}`));
      } else accept({ line, body, ...idOf(parsed) });
    });
    return file;
  }
  const root = tryParse(text);
  if (root instanceof JsonTextError) {
    file.refused.push(invalidJson(root.line, root.message));
    return file;
  }
  const nodes = root.kind === "array" ? root.items : [root];
  for (const node of nodes) {
    const line = lineAt(text, node.start);
    if (node.kind !== "object") {
      file.refused.push(invalidJson(line, `a message must be a JSON object, found ${node.kind}`));
    } else accept({ line, body: text.slice(node.start, node.end), ...idOf(node) });
  }
  return file;
}

function tryParse(text: string): JsonNode | JsonTextError {
  try {
    return parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonTextError) return error;
    throw error;
  }
}

/**
 * The bytes' lines (split on the newline byte), each decoded, or undefined when not UTF-8 (a byte
 * order mark is kept here and dropped above, at the file's start only).
 */
function decodeLines(bytes: Uint8Array): (string | undefined)[] {
  const lines: (string | undefined)[] = [];
  let start = 0;
  for (;;) {
    const at = bytes.indexOf(0x0a, start);
    const part = bytes.subarray(start, at === -1 ? bytes.length : at);
    lines.push(decodeStrictly(part));
    if (at === -1) return lines;
    start = at + 1;
  }
}

function invalidUtf8(line: number): RefusedEntry {
  return { line, code: "InvalidUtf8", message: "not valid UTF-8 (its bytes are refused, not replaced)" };
}

function invalidJson(line: number, message: string): RefusedEntry {
  return { line, code: "InvalidJson", message: `not valid JSON: ${message}` };
}

function located(line: number, id: string | undefined): { line: number; id?: string } {
  return id === undefined ? { line } : { line, id };
}

/** The top-level string `id` of a work item or an EventBridge event. */
function idOf(node: JsonNode): { id?: string } {
  if (node.kind !== "object") return {};
  const member = node.members.find((candidate) => candidate.key === "id");
  return member?.value.kind === "string" ? { id: member.value.value } : {};
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < offset;
    index = text.indexOf("\n", index + 1)
  ) {
    line += 1;
  }
  return line;
}
