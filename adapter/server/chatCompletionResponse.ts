import { randomUUID } from "node:crypto";
import type { ChatCompletionResult } from "../engine/types.js";

/** The OpenAI chat completions response body, as the standard path answers it. */
export interface ChatCompletionResponse {
  id: string;
  object: "chat.completion";
  /** Unix time, seconds. */
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: "assistant"; content: string };
    finish_reason: "stop" | "length";
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * Wraps an engine completion in the OpenAI response shape.
 * @param model the model name to report (the caller's `model`, else the loaded model's).
 * @param now clock, for tests. Default `Date.now`.
 */
export function chatCompletionResponse(
  result: ChatCompletionResult,
  model: string,
  now: () => number = Date.now,
): ChatCompletionResponse {
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: result.content },
        finish_reason: result.finish_reason,
      },
    ],
    usage: { ...result.usage },
  };
}
