/** The adapter's environment limits glibc's malloc arenas unless the caller chose otherwise. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { adapterEnvironment } from "../../local/startAdapterProcess.js";

describe("adapterEnvironment", () => {
  it("adds MALLOC_ARENA_MAX=2 and keeps everything else", () => {
    // act
    const env = adapterEnvironment({ PATH: "/bin", SEMIF_THREADS: "2" });

    // assert
    assert.deepEqual(env, { MALLOC_ARENA_MAX: "2", PATH: "/bin", SEMIF_THREADS: "2" });
  });

  it("leaves a caller's own MALLOC_ARENA_MAX as it is", () => {
    // act
    const env = adapterEnvironment({ MALLOC_ARENA_MAX: "8" });

    // assert
    assert.equal(env.MALLOC_ARENA_MAX, "8");
  });
});
