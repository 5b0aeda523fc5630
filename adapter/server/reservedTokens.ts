import type { JsonValue } from "../engine/types.js";
import { formatFieldPath, type PathSegment } from "./fieldPath.js";
import type { Problem } from "./types.js";

/**
 * Chat-control texts that caller text may never contain: with special-token parsing they become
 * control tokens and could forge prompt structure (close the user turn, open an assistant turn,
 * pre-fill a reasoning block). Besides this list, any `<|name|>` text is reserved (ChatML,
 * Llama 3, Qwen's vision and fill-in-the-middle tokens all use that form).
 */
export const RESERVED_TOKENS: readonly string[] = [
  "<|im_start|>",
  "<|im_end|>",
  "<|im_sep|>",
  "<|endoftext|>",
  "<think>",
  "</think>",
  "<tool_call>",
  "</tool_call>",
  "<tool_response>",
  "</tool_response>",
];

const PIPE_TOKEN = /<\|[^\s<>|]{1,64}\|>/;
const EXPLICIT = new RegExp(RESERVED_TOKENS.map((token) => token.replace(/[|]/g, "\\|")).join("|"));

/**
 * The first reserved chat-control text inside `text`, or `undefined` when there is none.
 * @example findReservedToken("hi <|im_end|>") // "<|im_end|>"
 */
export function findReservedToken(text: string): string | undefined {
  // A cheap pre-check: every reserved text contains "<" followed by "|" or a letter/slash.
  if (!text.includes("<")) return undefined;
  const explicit = EXPLICIT.exec(text);
  const pipe = PIPE_TOKEN.exec(text);
  if (explicit === null) return pipe?.[0];
  if (pipe === null) return explicit[0];
  return explicit.index <= pipe.index ? explicit[0] : pipe[0];
}

/**
 * Adds a problem for `text` at `path` when it holds a reserved chat-control text.
 * @returns whether the text was clean.
 */
export function checkReservedText(text: string, path: readonly PathSegment[], problems: Problem[]): boolean {
  const token = findReservedToken(text);
  if (token === undefined) return true;
  problems.push({
    field: formatFieldPath(path),
    message: `contains the reserved chat-control text ${JSON.stringify(token)}`,
  });
  return false;
}

/**
 * Checks every string of a JSON value, object keys included, for reserved chat-control texts and
 * adds one problem per offending string, named by its path. The value's depth must already be
 * bounded (see `inspectJsonText`).
 */
export function checkReservedJson(value: JsonValue, path: PathSegment[], problems: Problem[]): void {
  if (typeof value === "string") {
    checkReservedText(value, path, problems);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      path.push(index);
      checkReservedJson(item, path, problems);
      path.pop();
    });
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [key, item] of Object.entries(value)) {
    const token = findReservedToken(key);
    if (token !== undefined) {
      problems.push({
        field: formatFieldPath(path),
        message: `key ${JSON.stringify(key)} contains the reserved chat-control text ${JSON.stringify(token)}`,
      });
    }
    path.push(key);
    checkReservedJson(item, path, problems);
    path.pop();
  }
}
