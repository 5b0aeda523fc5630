import { JsonTextError, type JsonTextErrorKind } from "./errors.js";
import type { JsonMember, JsonNode, JsonPathSegment } from "./types.js";

/** Deepest nesting of arrays and objects {@link parseJsonText} accepts unless told otherwise. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Options of {@link parseJsonText}. */
export interface ParseJsonTextOptions {
  /** Most nested arrays/objects; the top-level value is depth 1. Default {@link DEFAULT_MAX_JSON_DEPTH} (64). */
  maxDepth?: number;
  /**
   * Called for each repeated object key instead of throwing; the parse goes on and the object
   * keeps every member as written (so a caller can report all repeats together with other problems).
   * Default: none, a repeated key throws.
   */
  onDuplicateKey?: (error: JsonTextError) => void;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Parses strict JSON (RFC 8259) into an ordered tree ({@link JsonNode}) that keeps what
 * `JSON.parse` loses: key order as written (JavaScript objects move integer-like keys such as
 * `"2024"` to the front), number literals as written (`2.0` is not `2`, `2**70` stays exact), and
 * the `[start, end)` offset of every value. Python's `json.loads` keeps both, so rendering the
 * state from this tree is what makes prompts byte-compatible with SemIf; no library parser keeps
 * the number spelling and offsets together, hence this hand-written scanner.
 *
 * Whitespace is space, tab, CR and LF only; no comments, trailing commas, `NaN` or single quotes.
 * A leading byte-order mark is not skipped (strip it before). Lone surrogate escapes (`"\ud800"`)
 * are accepted, as RFC 8259's grammar allows.
 *
 * @throws JsonTextError (`kind` `syntax`, `duplicate-key` or `too-deep`) with the position,
 *   line, column and path of the first problem.
 * @example parseJsonText('{"b": 2.0, "1": [true]}').kind === "object"
 */
export function parseJsonText(text: string, options: ParseJsonTextOptions = {}): JsonNode {
  const scanner = new Scanner(text, options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH, options.onDuplicateKey);
  scanner.skipWhitespace();
  const node = scanner.value();
  scanner.skipWhitespace();
  if (scanner.index < text.length) scanner.fail("syntax", "unexpected text after the JSON value");
  return node;
}

class Scanner {
  index = 0;
  readonly #path: JsonPathSegment[] = [];
  #depth = 0;

  constructor(
    readonly text: string,
    readonly maxDepth: number,
    readonly onDuplicateKey: ((error: JsonTextError) => void) | undefined,
  ) {}

  skipWhitespace(): void {
    const { text } = this;
    let index = this.index;
    for (; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    }
    this.index = index;
  }

  value(): JsonNode {
    const start = this.index;
    const code = this.text.charCodeAt(start);
    switch (code) {
      case 0x7b /* { */:
        return this.#object(start);
      case 0x5b /* [ */:
        return this.#array(start);
      case 0x22 /* " */:
        return { kind: "string", value: this.string(), start, end: this.index };
      case 0x74 /* t */:
        this.#literal("true");
        return { kind: "boolean", value: true, start, end: this.index };
      case 0x66 /* f */:
        this.#literal("false");
        return { kind: "boolean", value: false, start, end: this.index };
      case 0x6e /* n */:
        this.#literal("null");
        return { kind: "null", start, end: this.index };
      default: {
        NUMBER.lastIndex = start;
        const match = NUMBER.exec(this.text);
        if (match === null) {
          this.fail("syntax", start >= this.text.length ? "unexpected end of text" : this.#unexpected(start));
        }
        this.index = start + match[0].length;
        return { kind: "number", raw: match[0], start, end: this.index };
      }
    }
  }

  #object(start: number): JsonNode {
    this.#enter();
    this.index += 1;
    const members: JsonMember[] = [];
    const keys = new Set<string>();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.index) === 0x7d /* } */) {
      this.index += 1;
      this.#depth -= 1;
      return { kind: "object", members, start, end: this.index };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.index) !== 0x22) this.#expected("a string key");
      const keyStart = this.index;
      const key = this.string();
      if (keys.has(key)) this.#duplicate(key, keyStart);
      keys.add(key);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.index) !== 0x3a /* : */) this.#expected('":"');
      this.index += 1;
      this.skipWhitespace();
      this.#path.push(key);
      members.push({ key, value: this.value() });
      this.#path.pop();
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.index);
      this.index += 1;
      if (next === 0x2c /* , */) continue;
      if (next === 0x7d /* } */) break;
      this.index -= 1;
      this.#expected('"," or "}"');
    }
    this.#depth -= 1;
    return { kind: "object", members, start, end: this.index };
  }

  #array(start: number): JsonNode {
    this.#enter();
    this.index += 1;
    const items: JsonNode[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.index) === 0x5d /* ] */) {
      this.index += 1;
      this.#depth -= 1;
      return { kind: "array", items, start, end: this.index };
    }
    for (;;) {
      this.skipWhitespace();
      this.#path.push(items.length);
      items.push(this.value());
      this.#path.pop();
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.index);
      this.index += 1;
      if (next === 0x2c /* , */) continue;
      if (next === 0x5d /* ] */) break;
      this.index -= 1;
      this.#expected('"," or "]"');
    }
    this.#depth -= 1;
    return { kind: "array", items, start, end: this.index };
  }

  /** Reads the string literal at `index` (which is its opening quote) and returns its value. */
  string(): string {
    const { text } = this;
    let index = this.index + 1;
    let value = "";
    let runStart = index;
    for (;;) {
      if (index >= text.length) {
        this.index = index;
        this.fail("syntax", "unterminated string");
      }
      const code = text.charCodeAt(index);
      if (code === 0x22 /* " */) {
        value += text.slice(runStart, index);
        this.index = index + 1;
        return value;
      }
      if (code < 0x20) {
        this.index = index;
        this.fail("syntax", "unescaped control character in a string");
      }
      if (code !== 0x5c /* \ */) {
        index += 1;
        continue;
      }
      value += text.slice(runStart, index);
      const escaped = text[index + 1];
      if (escaped === "u") {
        const hex = text.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.index = index;
          this.fail("syntax", "invalid \\u escape (needs four hex digits)");
        }
        value += String.fromCharCode(Number.parseInt(hex, 16));
        index += 6;
      } else {
        const replacement = escaped === undefined ? undefined : ESCAPES[escaped];
        if (replacement === undefined) {
          this.index = index;
          this.fail("syntax", `invalid escape ${JSON.stringify(`\\${escaped ?? ""}`)}`);
        }
        value += replacement;
        index += 2;
      }
      runStart = index;
    }
  }

  #literal(word: string): void {
    if (!this.text.startsWith(word, this.index)) this.fail("syntax", this.#unexpected(this.index));
    this.index += word.length;
  }

  #enter(): void {
    if (this.#depth >= this.maxDepth) {
      this.fail("too-deep", `arrays and objects nest deeper than ${this.maxDepth} levels`);
    }
    this.#depth += 1;
  }

  #duplicate(key: string, position: number): void {
    const error = this.#error("duplicate-key", `duplicate key ${JSON.stringify(key)}`, position, key);
    if (this.onDuplicateKey === undefined) throw error;
    this.onDuplicateKey(error);
  }

  #expected(what: string): never {
    const found =
      this.index >= this.text.length ? "the end of the text" : JSON.stringify(this.#charAt(this.index));
    this.fail("syntax", `expected ${what}, found ${found}`);
  }

  #unexpected(index: number): string {
    return `unexpected character ${JSON.stringify(this.#charAt(index))}`;
  }

  #charAt(index: number): string {
    return String.fromCodePoint(this.text.codePointAt(index) ?? 0);
  }

  fail(kind: JsonTextErrorKind, reason: string): never {
    throw this.#error(kind, reason, this.index);
  }

  #error(kind: JsonTextErrorKind, reason: string, position: number, key?: string): JsonTextError {
    let line = 1;
    let lineStart = 0;
    for (let index = this.text.indexOf("\n"); index !== -1 && index < position; ) {
      line += 1;
      lineStart = index + 1;
      index = this.text.indexOf("\n", lineStart);
    }
    return new JsonTextError(kind, reason, position, line, position - lineStart + 1, [...this.#path], key);
  }
}
