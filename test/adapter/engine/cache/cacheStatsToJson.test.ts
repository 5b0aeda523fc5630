import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cacheStatsToJson } from "../../../../adapter/engine/cache/cacheStatsToJson.js";
import type { CacheStats } from "../../../../adapter/engine/types.js";

const STATS: CacheStats = {
  hits: 1,
  state_file_hits: 0,
  misses: 2,
  reused_tokens: 3,
  evaluated_tokens: 4,
  state_files: 0,
  state_file_bytes: 0,
  max_bytes: 10,
  max_bytes_source: "explicit",
  max_bytes_sized_from: null,
  snapshot_bytes: 0,
  state_file_save_failures: 1,
  state_file_load_failures: 0,
  last_state_file_error: null,
};

describe("cacheStatsToJson", () => {
  it("keeps the last state-file error's name and message through JSON", () => {
    const error = new Error("ENOSPC: no space left on device", { cause: new Error("inner") });
    const json = JSON.parse(JSON.stringify(cacheStatsToJson({ ...STATS, last_state_file_error: error })));
    assert.deepEqual(json.last_state_file_error, {
      name: "Error",
      message: "ENOSPC: no space left on device",
    });
    assert.equal(json.state_file_save_failures, 1);
    assert.equal(cacheStatsToJson(STATS).last_state_file_error, null);
  });
});
