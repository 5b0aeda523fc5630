import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { profileEndpointCalls } from "../../../lab/bench/backlog/profileEndpointCalls.js";
import { profileInvocations } from "../../../lab/bench/backlog/profileInvocations.js";

describe("profileEndpointCalls", () => {
  it("measures the busy share as the union of the calls, and the mean in flight as their sum", () => {
    const profile = profileEndpointCalls(
      [
        { status: 200, startMs: 1_000, endMs: 3_000 },
        { status: 200, startMs: 2_000, endMs: 4_000 },
        { status: 503, startMs: 2_500, endMs: 2_500 },
        { status: 200, startMs: 6_000, endMs: 8_000 },
      ],
      0,
      10_000,
    );

    // Busy 1–4 s and 6–8 s of 10 s; 6 s of calls in 10 s.
    assert.equal(profile.calls, 4);
    assert.equal(profile.busy_share, 0.5);
    assert.equal(profile.mean_in_flight, 0.6);
    assert.equal(profile.first_call_s, 1);
    assert.equal(profile.tail_s, 2);
    assert.equal(profile.served_p50_ms, 2_000);
  });

  it("clips calls to the window and refuses an empty one", () => {
    const profile = profileEndpointCalls([{ status: 200, startMs: -5_000, endMs: 5_000 }], 0, 10_000);
    assert.equal(profile.busy_share, 0.5);
    assert.throws(() => profileEndpointCalls([], 5, 5), RangeError);
  });
});

describe("profileInvocations", () => {
  it("measures the functions' busy share and running mean, records per invocation and the unheld time", () => {
    const profile = profileInvocations(
      [
        { startMs: 0, endMs: 4_000, records: 10 },
        { startMs: 2_000, endMs: 6_000, records: 6 },
      ],
      3_500,
      0,
      10_000,
    );

    // Running 0–6 s of 10 s; 8 s of invocations in 10 s.
    assert.deepEqual(profile, {
      invocations: 2,
      records_per_invocation: 8,
      busy_share: 0.6,
      mean_running: 0.8,
      unheld_s: 3.5,
    });
  });
});
