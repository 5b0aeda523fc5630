import { AMX_OFF_FLAGS, type SourceLlamaBuild } from "./llamaBuilds.js";
import type { CpuFeatures } from "./readCpuFeatures.js";

/** What {@link explainAmxChoice} says: a line for the build's output, and whether to warn. */
export interface AmxChoice {
  /** Whether the build may contain ggml's AMX kernels. */
  amx: boolean;
  /** One line for the build's output: what the build does about AMX on this CPU, and why. */
  line: string;
}

/**
 * Says what a source build does about AMX on this CPU, for the build's output (the choice is
 * printed, never silent): `native` leaves it out on x86 (ggml's AMX kernels crash on some AMX
 * hosts, and a `-march=native` build would compile them on any CPU with `amx_int8`),
 * `native-amx` keeps it, `portable` never had it.
 * @param arch Node.js's name of the CPU architecture. Default: this process's.
 */
export function explainAmxChoice(
  build: SourceLlamaBuild,
  cpu: CpuFeatures,
  arch: NodeJS.Architecture = process.arch,
): AmxChoice {
  const reported = cpu.amx.length > 0 ? `this CPU reports ${cpu.amx.join(", ")}` : "this CPU reports no AMX";
  if (arch !== "x64") return { amx: false, line: `AMX: none (AMX is an x86 feature; this is ${arch})` };
  if (build === "portable") {
    return {
      amx: false,
      line: "AMX: not compiled in (GGML_NATIVE=OFF builds ggml's default x86 set: SSE 4.2, AVX, AVX2, FMA, F16C, BMI2)",
    };
  }
  if (build === "native") {
    const consequence =
      cpu.amx.length > 0
        ? "ggml's AMX kernels are left out, because they crash on some AMX hosts; `--variant native-amx` keeps them (the smoke test tells whether they run here)"
        : "so the flags change nothing here";
    return { amx: false, line: `AMX: left out (${AMX_OFF_FLAGS}); ${reported}: ${consequence}` };
  }
  const consequence =
    cpu.amx.length > 0
      ? "ggml's AMX kernels are compiled in and the smoke test runs them"
      : "so this build is native without the AMX-off flags, and no AMX code runs";
  return { amx: true, line: `AMX: kept (-march=native as it is); ${reported}: ${consequence}` };
}
