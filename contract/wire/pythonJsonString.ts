const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped here
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;

/**
 * A JSON string literal as Python's `json.dumps(s, ensure_ascii=False)` writes it: `"`, `\\`,
 * `\n`, `\r`, `\t`, `\b`, `\f` escaped short, other control characters below U+0020 as `\u00XX`
 * (lower-case hex); everything from U+0020 on (U+007F, U+2028, non-ASCII) kept as it is.
 *
 * @example pythonJsonString('é "x"\u0001') === '"é \\"x\\"\\u0001"'
 */
export function pythonJsonString(text: string): string {
  const escaped = text.replace(
    NEEDS_ESCAPE,
    (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `"${escaped}"`;
}
