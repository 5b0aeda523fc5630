import { LlamaLogLevel } from "node-llama-cpp";
import type { EngineLogger, EngineLogLevel } from "../EngineLogger.js";

const LEVELS: Readonly<Record<LlamaLogLevel, EngineLogLevel | undefined>> = {
  [LlamaLogLevel.disabled]: undefined,
  [LlamaLogLevel.fatal]: "error",
  [LlamaLogLevel.error]: "error",
  [LlamaLogLevel.warn]: "warn",
  [LlamaLogLevel.info]: "info",
  [LlamaLogLevel.log]: "info",
  [LlamaLogLevel.debug]: "debug",
};

/**
 * A node-llama-cpp `logger` (see `getLlama({logger})`) that writes each llama.cpp log line as one
 * `llama_cpp` record of `logger`: `{level, event: "llama_cpp", message, llama_level}`, the message
 * without its trailing newline. Progress output made only of dots is dropped (it carries no text
 * and llama.cpp prints it in fragments).
 */
export function llamaLogRouter(logger: EngineLogger): (level: LlamaLogLevel, message: string) => void {
  return (level, message) => {
    const text = message.trimEnd();
    const mapped = LEVELS[level];
    if (mapped === undefined || /^\.*$/.test(text)) return;
    logger.log(mapped, "llama_cpp", { message: text, llama_level: level });
  };
}
