/**
 * Reading the CPU's features from /proc/cpuinfo text: the flags and model of the first processor,
 * AMX told apart, and a description that names what ggml cares about.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeCpuFeatures, parseCpuInfo } from "../../../../adapter/engine/builds/readCpuFeatures.js";
import { EPYC, GRAVITON, XEON_WITH_AMX } from "./cpuInfoFixtures.js";

describe("parseCpuInfo", () => {
  it("finds the AMX flags of a Xeon that has them, sorted", () => {
    // act
    const cpu = parseCpuInfo(XEON_WITH_AMX);

    // assert
    assert.equal(cpu.model, "Intel(R) Xeon(R) Platinum 8488C");
    assert.deepEqual(cpu.amx, ["amx_bf16", "amx_int8", "amx_tile"]);
    assert.ok(cpu.flags.has("avx512_vnni"));
    assert.equal(cpu.known, true);
  });

  it("reports no AMX on a CPU without it", () => {
    // act
    const cpu = parseCpuInfo(EPYC);

    // assert
    assert.deepEqual(cpu.amx, []);
    assert.ok(cpu.flags.has("avx2"));
    assert.equal(cpu.flags.has("avx512f"), false);
  });

  it("reads an ARM kernel's Features line as the flags", () => {
    // act
    const cpu = parseCpuInfo(GRAVITON);

    // assert
    assert.ok(cpu.flags.has("asimd"));
    assert.ok(cpu.flags.has("sve"));
    assert.equal(cpu.model, "unknown");
  });

  it("knows nothing from an empty text and says so", () => {
    // act
    const cpu = parseCpuInfo("");

    // assert
    assert.equal(cpu.known, false);
    assert.equal(cpu.flags.size, 0);
    assert.equal(describeCpuFeatures(cpu), "unknown (CPU flags unknown)");
  });
});

describe("describeCpuFeatures", () => {
  it("names ggml's flags in order, AMX included, and what is missing", () => {
    // act
    const xeon = describeCpuFeatures(parseCpuInfo(XEON_WITH_AMX));
    const epyc = describeCpuFeatures(parseCpuInfo(EPYC));

    // assert
    assert.equal(
      xeon,
      "Intel(R) Xeon(R) Platinum 8488C (sse4_2 avx f16c fma bmi2 avx2 avx512f avx512bw avx512vl avx512_vnni avx512_bf16 amx_tile amx_int8 amx_bf16)",
    );
    assert.equal(epyc, "AMD EPYC 7B13 (sse4_2 avx f16c fma bmi2 avx2; no AVX-512, no AMX)");
  });
});
