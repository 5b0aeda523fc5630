/**
 * Chat-control texts that caller text may never contain: with special-token parsing they become
 * control tokens and could forge prompt structure (close the user turn, open an assistant turn,
 * pre-fill a reasoning block). Besides this list, any `<|name|>` text is reserved (ChatML,
 * Llama 3, Qwen's vision and fill-in-the-middle tokens all use that form). The request schemas
 * refuse them everywhere the model reads caller text (the server's `validateRequest`); the policy
 * loader and the decide function refuse them in policies and work items. Pure: no runtime imports.
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
