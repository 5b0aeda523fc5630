import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createJsonLogger, safeStringify } from "../../../adapter/server/logger.js";

describe("createJsonLogger", () => {
  it("writes one JSON line per call with time, level and event, dropping lines below its level", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({
      level: "info",
      write: (line) => lines.push(line),
      now: () => new Date(0),
    });
    logger.log("debug", "hidden");
    logger.log("info", "ready", { port: 8080 });
    logger.log("error", "failed", { error: new Error("boom", { cause: new Error("root") }) });
    assert.equal(lines.length, 2);
    assert.ok(lines.every((line) => line.endsWith("\n") && !line.slice(0, -1).includes("\n")));
    assert.deepEqual(JSON.parse(lines[0] ?? ""), {
      time: "1970-01-01T00:00:00.000Z",
      level: "info",
      event: "ready",
      port: 8080,
    });
    const failed = JSON.parse(lines[1] ?? "");
    assert.equal(failed.error.message, "boom");
    assert.equal(failed.error.cause.message, "root");
  });

  it("never throws on values JSON cannot hold", () => {
    const cyclic: Record<string, unknown> = { big: 10n };
    cyclic.self = cyclic;
    assert.equal(safeStringify(cyclic), '{"big":"10","self":"[circular]"}');
  });
});
