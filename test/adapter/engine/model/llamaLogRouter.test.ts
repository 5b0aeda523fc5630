import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlamaLogLevel } from "node-llama-cpp";
import type { EngineLogLevel } from "../../../../adapter/engine/EngineLogger.js";
import { llamaLogRouter } from "../../../../adapter/engine/model/llamaLogRouter.js";

describe("llamaLogRouter", () => {
  it("writes each llama.cpp line as one llama_cpp record with a level, dropping progress dots", () => {
    const records: [EngineLogLevel, string, Record<string, unknown> | undefined][] = [];
    const route = llamaLogRouter({ log: (level, event, fields) => records.push([level, event, fields]) });
    route(LlamaLogLevel.warn, "load: control-looking token\n");
    route(LlamaLogLevel.fatal, "abort");
    route(LlamaLogLevel.log, "plain");
    route(LlamaLogLevel.debug, "details");
    route(LlamaLogLevel.info, "....");
    route(LlamaLogLevel.disabled, "never");
    assert.deepEqual(records, [
      ["warn", "llama_cpp", { message: "load: control-looking token", llama_level: "warn" }],
      ["error", "llama_cpp", { message: "abort", llama_level: "fatal" }],
      ["info", "llama_cpp", { message: "plain", llama_level: "log" }],
      ["debug", "llama_cpp", { message: "details", llama_level: "debug" }],
    ]);
  });
});
