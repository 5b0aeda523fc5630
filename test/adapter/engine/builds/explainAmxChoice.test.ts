/**
 * The AMX choice a source build prints: native leaves AMX out (and says so, with the reason and
 * the override), native-amx keeps it, portable never had it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explainAmxChoice } from "../../../../adapter/engine/builds/explainAmxChoice.js";
import { parseCpuInfo } from "../../../../adapter/engine/builds/readCpuFeatures.js";
import { EPYC, XEON_WITH_AMX } from "./cpuInfoFixtures.js";

describe("explainAmxChoice", () => {
  it("leaves AMX out of native on a CPU with AMX, naming its flags, the reason and the override", () => {
    // act
    const choice = explainAmxChoice("native", parseCpuInfo(XEON_WITH_AMX), "x64");

    // assert
    assert.equal(choice.amx, false);
    assert.match(choice.line, /^AMX: left out \(-mno-amx-tile -mno-amx-int8 -mno-amx-bf16\)/);
    assert.match(choice.line, /this CPU reports amx_bf16, amx_int8, amx_tile/);
    assert.match(choice.line, /`--variant native-amx` keeps them/);
  });

  it("says the AMX-off flags change nothing on a CPU without AMX", () => {
    // act
    const choice = explainAmxChoice("native", parseCpuInfo(EPYC), "x64");

    // assert
    assert.equal(choice.amx, false);
    assert.match(choice.line, /this CPU reports no AMX: so the flags change nothing here/);
  });

  it("keeps AMX in native-amx and says the smoke test runs it", () => {
    // act
    const choice = explainAmxChoice("native-amx", parseCpuInfo(XEON_WITH_AMX), "x64");

    // assert
    assert.equal(choice.amx, true);
    assert.match(choice.line, /^AMX: kept/);
    assert.match(choice.line, /the smoke test runs them/);
  });

  it("says portable compiles ggml's default x86 set, without AMX", () => {
    // act
    const choice = explainAmxChoice("portable", parseCpuInfo(XEON_WITH_AMX), "x64");

    // assert
    assert.equal(choice.amx, false);
    assert.match(choice.line, /GGML_NATIVE=OFF builds ggml's default x86 set: SSE 4\.2, AVX, AVX2/);
  });

  it("has no AMX to decide on another architecture", () => {
    // act
    const choice = explainAmxChoice("native", parseCpuInfo(""), "arm64");

    // assert
    assert.equal(choice.amx, false);
    assert.match(choice.line, /AMX is an x86 feature; this is arm64/);
  });
});
