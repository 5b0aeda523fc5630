/**
 * Characters that act on a terminal or reorder what it shows rather than being shown: C0 controls
 * (ESC starts an escape sequence, CR returns to the line's start), DEL, C1 controls (U+009B is a
 * one-byte CSI on some terminals), the bidirectional embeddings, overrides and isolates, and the
 * Unicode line and paragraph separators.
 */
const ACTIVE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/gu;

/** {@link ACTIVE} less the C0 controls, which JSON.stringify escapes inside strings itself. */
const ACTIVE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/gu;

/** One character as the escape a person reads: `\x1b`, `\r`, `\u202e`. */
function escapeOf(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (char === "\t") return "\\t";
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` made inert for a terminal: every control character (newlines and tabs included), DEL,
 * C1 control, bidirectional control and line separator written as a visible escape (`\x1b`, `\r`,
 * `\u202e`), so that an id or reason read from a table or a queue cannot move the cursor, repaint a
 * line or reorder what is shown. Everything else is kept as it is.
 *
 * @example inertText("t-1\r\x1b[2Kdecided") // "t-1\\r\\x1b[2Kdecided"
 */
export function inertText(text: string): string {
  return text.replace(ACTIVE, escapeOf);
}

/** Text of several lines made inert line by line: the newlines between them are kept. */
export function inertLines(text: string): string {
  return text.split("\n").map(inertText).join("\n");
}

/**
 * `JSON.stringify(value, null, indent)` with the characters JSON leaves raw but a terminal acts on
 * (DEL, C1 controls, bidirectional controls, line separators) written as `\uXXXX` escapes: still
 * JSON, and it parses to the same value. (JSON.stringify already escapes C0 controls.)
 */
export function inertJson(value: unknown, indent?: number): string {
  // Outside strings JSON.stringify writes only ASCII punctuation, digits, letters and the indent's
  // newlines and spaces, so every match is inside a string, where a \uXXXX escape is valid.
  return JSON.stringify(value, null, indent).replace(
    ACTIVE_IN_JSON,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}
