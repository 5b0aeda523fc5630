import type { LlamaModel, Token } from "node-llama-cpp";
import type { ChunkedSequence } from "../sequence/ChunkedSequence.js";
import { throwIfAborted } from "../throwIfAborted.js";
import type { ChatCompletionResult } from "../types.js";
import type { PreparedChat } from "./prepareChat.js";

/**
 * Answers a prepared chat by generation on the live sequence (reusing its common prefix), until
 * an end-of-generation token or `maxTokens`.
 * @param startedAt when the call began (`performance.now()`), so timings include tokenizing and
 *   the wait for the context. Default: now.
 * @throws AbortedError when the signal aborts between generated tokens.
 */
export async function generateChat(
  chunked: ChunkedSequence,
  model: Pick<LlamaModel, "isEogToken" | "detokenize">,
  chat: PreparedChat,
  signal?: AbortSignal,
  startedAt = performance.now(),
): Promise<ChatCompletionResult> {
  const started = startedAt;
  const { tokens } = chat;
  const evaluationStart = await chunked.rewindForGeneration(tokens);
  const generated: Token[] = [];
  let firstTokenAt = 0;
  let finish: "stop" | "length" = "length";
  const iterator = chunked.sequence.evaluate(tokens.slice(evaluationStart), {
    temperature: chat.temperature,
  });
  chunked.evaluated();
  try {
    for await (const token of iterator) {
      if (firstTokenAt === 0) firstTokenAt = performance.now();
      throwIfAborted(signal);
      if (model.isEogToken(token)) {
        finish = "stop";
        break;
      }
      generated.push(token);
      if (generated.length >= chat.maxTokens) break;
    }
  } finally {
    await iterator.return();
  }
  const done = performance.now();
  return {
    content: model.detokenize(generated),
    finish_reason: finish,
    usage: {
      prompt_tokens: tokens.length,
      completion_tokens: generated.length,
      total_tokens: tokens.length + generated.length,
    },
    timing: {
      prefill_ms: (firstTokenAt || done) - started,
      generate_ms: firstTokenAt ? done - firstTokenAt : 0,
      total_ms: done - started,
    },
  };
}
