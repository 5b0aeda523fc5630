import type { ChatCompletionRequest, ChatMessage } from "../engine/types.js";
import { MAX_CHAT_MESSAGES } from "./constants.js";
import { addProblem, checkArray, checkObject, checkText, describeType } from "./fieldChecks.js";
import type { ChatInvocation, Problem, RequestLimits, Validation } from "./types.js";

const REQUEST_FIELDS = new Set(["messages", "max_tokens", "stream", "temperature", "model"]);
const MESSAGE_FIELDS = new Set(["role", "content"]);
const ROLES = new Set<ChatMessage["role"]>(["system", "user", "assistant"]);

/**
 * Validates an OpenAI chat completions request `{messages, max_tokens?, stream?, temperature?, model?}`:
 * 1 to 256 messages of role `system`, `user` or `assistant` with string content free of reserved
 * chat-control text; `max_tokens` an integer from 1 to `limits.maxCompletionTokens`; `temperature`
 * from 0 to 2; `stream: true` is refused (streaming is not supported). Every problem is reported.
 */
export function validateChatRequest(body: unknown, limits: RequestLimits): Validation<ChatInvocation> {
  const problems: Problem[] = [];
  if (!checkObject(body, [], REQUEST_FIELDS, problems)) return { ok: false, problems };
  const messages: ChatMessage[] = [];
  if (
    checkArray(body.messages, ["messages"], problems, { min: 1, max: MAX_CHAT_MESSAGES, what: "messages" })
  ) {
    body.messages.forEach((message, index) => {
      const path = ["messages", index];
      if (!checkObject(message, path, MESSAGE_FIELDS, problems)) return;
      const role = message.role;
      if (typeof role !== "string" || !ROLES.has(role as ChatMessage["role"])) {
        addProblem(
          problems,
          [...path, "role"],
          `must be one of ${[...ROLES].join(", ")}, got ${role === undefined ? "nothing" : JSON.stringify(role)}`,
        );
      }
      if (message.content !== undefined && typeof message.content !== "string") {
        addProblem(
          problems,
          [...path, "content"],
          `must be a string (content parts are not supported), got ${describeType(message.content)}`,
        );
      } else {
        checkText(message.content, [...path, "content"], problems, { allowBlank: true });
      }
      messages.push({ role: role as ChatMessage["role"], content: message.content as string });
    });
  }
  const maxTokens = body.max_tokens;
  if (
    maxTokens !== undefined &&
    maxTokens !== null &&
    (typeof maxTokens !== "number" ||
      !Number.isInteger(maxTokens) ||
      maxTokens < 1 ||
      maxTokens > limits.maxCompletionTokens)
  ) {
    addProblem(problems, ["max_tokens"], `must be an integer from 1 to ${limits.maxCompletionTokens}`);
  }
  const temperature = body.temperature;
  if (
    temperature !== undefined &&
    temperature !== null &&
    (typeof temperature !== "number" || !(temperature >= 0 && temperature <= 2))
  ) {
    addProblem(problems, ["temperature"], "must be a number from 0 to 2");
  }
  if (body.stream === true) {
    addProblem(problems, ["stream"], "streaming is not supported; omit stream or send false");
  } else if (body.stream !== undefined && body.stream !== false && body.stream !== null) {
    addProblem(problems, ["stream"], `must be a boolean, got ${describeType(body.stream)}`);
  }
  if (body.model !== undefined && body.model !== null && typeof body.model !== "string") {
    addProblem(problems, ["model"], `must be a string, got ${describeType(body.model)}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const request: ChatCompletionRequest = { messages };
  if (typeof maxTokens === "number") request.maxTokens = maxTokens;
  if (typeof temperature === "number") request.temperature = temperature;
  return {
    ok: true,
    value: { kind: "chat", request, model: typeof body.model === "string" ? body.model : undefined },
  };
}
