/** The adapter's environment sets glibc's malloc arenas and mmap threshold unless the caller chose otherwise. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { adapterEnvironment } from "../../../local/services/startAdapterProcess.js";

describe("adapterEnvironment", () => {
  it("adds MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_=262144 and keeps everything else", () => {
    // act
    const env = adapterEnvironment({ PATH: "/bin", SEMIF_THREADS: "2" });

    // assert
    assert.deepEqual(env, {
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "262144",
      PATH: "/bin",
      SEMIF_THREADS: "2",
    });
  });

  it("leaves a caller's own values as they are", () => {
    // act
    const env = adapterEnvironment({ MALLOC_ARENA_MAX: "8", MALLOC_MMAP_THRESHOLD_: "131072" });

    // assert
    assert.equal(env.MALLOC_ARENA_MAX, "8");
    assert.equal(env.MALLOC_MMAP_THRESHOLD_, "131072");
  });
});
