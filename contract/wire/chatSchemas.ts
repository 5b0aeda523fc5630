/**
 * The standard path's wire format: an OpenAI chat completions request `{messages, max_tokens?,
 * stream?, temperature?, model?}` and its response, as the AWS llama.cpp container serves it.
 */
import { z } from "zod";
import { DEFAULT_REQUEST_LIMITS, MAX_CHAT_MESSAGES } from "./constants.js";
import { closedObject, countedArray, mustBe, requestText } from "./requestSchemaParts.js";
import type { RequestSchemaOptions } from "./types.js";

const ROLES = ["system", "user", "assistant"] as const;

/**
 * Builds the chat request schema: 1 to 256 messages of role `system`, `user` or `assistant` with
 * string content (blank allowed, no reserved text); `max_tokens` an integer from 1 to
 * `maxCompletionTokens`; `temperature` from 0 to 2; `stream: true` is refused (not supported);
 * `null` means absent for the optional fields, as OpenAI clients send it.
 */
export function chatRequestSchema(options: RequestSchemaOptions = {}) {
  const maxTokens = options.maxCompletionTokens ?? DEFAULT_REQUEST_LIMITS.maxCompletionTokens;
  const tokensMessage = `must be an integer from 1 to ${maxTokens}`;
  const temperatureMessage = "must be a number from 0 to 2";
  const message = closedObject({
    role: z.enum(ROLES, {
      error: (issue) =>
        `must be one of ${ROLES.join(", ")}, got ${issue.input === undefined ? "nothing" : JSON.stringify(issue.input)}`,
    }),
    content: requestText(options.findReservedText, {
      allowBlank: true,
      what: "a string (content parts are not supported)",
    }),
  });
  return closedObject(
    {
      messages: countedArray(message, { min: 1, max: MAX_CHAT_MESSAGES, what: "messages" }),
      max_tokens: z
        .number({ error: tokensMessage })
        .int({ error: tokensMessage })
        .min(1, { error: tokensMessage })
        .max(maxTokens, { error: tokensMessage })
        .nullish(),
      stream: z
        .boolean({ error: mustBe("a boolean") })
        .refine((stream) => !stream, { error: "streaming is not supported; omit stream or send false" })
        .nullish(),
      temperature: z
        .number({ error: temperatureMessage })
        .min(0, { error: temperatureMessage })
        .max(2, { error: temperatureMessage })
        .nullish(),
      model: z.string({ error: mustBe("a string") }).nullish(),
    },
    ["messages", "max_tokens", "stream", "temperature", "model"],
  );
}

/** A chat request with the format's own limits. */
export const ChatRequestSchema = chatRequestSchema();

/** An OpenAI chat completions request. */
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** One message of a chat request. */
export type ChatRequestMessage = ChatRequest["messages"][number];

/** The OpenAI chat completions response body, as the standard path answers it. */
export const ChatResponseSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int().describe("Unix time, seconds."),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.literal(0),
      message: z.object({ role: z.literal("assistant"), content: z.string() }),
      finish_reason: z.enum(["stop", "length"]),
    }),
  ),
  usage: z.object({
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    total_tokens: z.number().int(),
  }),
});

/** An OpenAI chat completions response. */
export type ChatResponse = z.infer<typeof ChatResponseSchema>;
