import type { DecisionEngine } from "../engine/types.js";
import type { ServerConfig } from "./config.js";
import type { RequestLimits } from "./types.js";

/** The request limits in force: the configured ones, capped by what the loaded engine can do. */
export function limitsInForce(
  settings: Pick<
    ServerConfig,
    "maxOptions" | "maxQuestions" | "maxPromptTokens" | "maxRequestTokens" | "maxCompletionTokens"
  >,
  engine: Pick<DecisionEngine, "maxOptions" | "contextSize">,
): RequestLimits {
  return {
    maxOptions: Math.min(settings.maxOptions, engine.maxOptions),
    maxQuestions: settings.maxQuestions,
    maxPromptTokens: Math.min(settings.maxPromptTokens, engine.contextSize),
    maxRequestTokens: settings.maxRequestTokens,
    maxCompletionTokens: Math.min(settings.maxCompletionTokens, engine.contextSize),
  };
}
