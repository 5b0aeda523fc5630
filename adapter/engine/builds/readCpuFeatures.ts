import { readFileSync } from "node:fs";

/** What this machine's CPU offers, as the kernel reports it (`/proc/cpuinfo` on Linux). */
export interface CpuFeatures {
  /** The CPU's model name (`model name`), or `unknown`. */
  model: string;
  /** Every flag of the first processor (`flags`), lower case: `avx2`, `amx_int8`, … */
  flags: ReadonlySet<string>;
  /** The AMX flags among them (`amx_tile`, `amx_int8`, `amx_bf16`, …), sorted; empty without AMX. */
  amx: readonly string[];
  /** Whether the flags were read at all (false off Linux or when `/proc/cpuinfo` is unreadable). */
  known: boolean;
}

/**
 * The instruction-set flags ggml's x86 CPU code is compiled for (and by `-march=native` picks up),
 * in the order a reader expects them. {@link describeCpuFeatures} names the ones present.
 */
const SIMD_FLAGS = [
  "sse4_2",
  "avx",
  "f16c",
  "fma",
  "bmi2",
  "avx2",
  "avx_vnni",
  "avx512f",
  "avx512bw",
  "avx512vl",
  "avx512_vbmi",
  "avx512_vnni",
  "avx512_bf16",
  "amx_tile",
  "amx_int8",
  "amx_bf16",
  "amx_fp16",
  "asimd",
  "sve",
] as const;

/**
 * Parses the text of `/proc/cpuinfo`: the model name and flags of the first processor (the kernel
 * lists the same flags for every core of a machine). An ARM kernel calls the flags `Features`.
 * @example
 * ```ts
 * const cpu = parseCpuInfo("model name\t: Intel(R) Xeon(R) Platinum 8488C\nflags\t\t: fpu avx2 amx_tile amx_int8\n");
 * cpu.amx; // ["amx_int8", "amx_tile"]
 * ```
 */
export function parseCpuInfo(text: string): CpuFeatures {
  let model: string | undefined;
  let flags: string[] | undefined;
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) {
      // A blank line ends the first processor's block.
      if (line.trim() === "" && flags !== undefined) break;
      continue;
    }
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (model === undefined && (key === "model name" || key === "cpu model")) model = value;
    if (flags === undefined && (key === "flags" || key === "features")) {
      flags = value.split(/\s+/).filter((flag) => flag !== "");
    }
  }
  const set = new Set((flags ?? []).map((flag) => flag.toLowerCase()));
  return {
    model: model ?? "unknown",
    flags: set,
    amx: [...set].filter((flag) => flag.startsWith("amx_")).sort(),
    known: flags !== undefined,
  };
}

/**
 * Reads this machine's CPU features once (from `/proc/cpuinfo` on Linux). Elsewhere, or when the
 * file cannot be read, the features are unknown (`known: false`, no flags): nothing is assumed.
 * Meant for an entry point (a command), which passes the result down.
 */
export function readCpuFeatures(path = "/proc/cpuinfo"): CpuFeatures {
  if (process.platform !== "linux") return parseCpuInfo("");
  try {
    return parseCpuInfo(readFileSync(path, "utf8"));
  } catch (error) {
    // A missing or unreadable cpuinfo (a locked-down sandbox) is not an error: the features are unknown.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EPERM") return parseCpuInfo("");
    throw error;
  }
}

/**
 * One line naming the CPU and the instruction-set flags ggml cares about, for build output and
 * error messages: `AMD EPYC 7B13 (sse4_2 avx f16c fma bmi2 avx2; no AVX-512, no AMX)`.
 */
export function describeCpuFeatures(cpu: CpuFeatures): string {
  if (!cpu.known) return `${cpu.model} (CPU flags unknown)`;
  const present = SIMD_FLAGS.filter((flag) => cpu.flags.has(flag));
  const missing: string[] = [];
  if (!cpu.flags.has("avx512f")) missing.push("no AVX-512");
  if (cpu.amx.length === 0) missing.push("no AMX");
  const tail = missing.length > 0 ? `; ${missing.join(", ")}` : "";
  return `${cpu.model} (${present.join(" ") || "none of ggml's SIMD flags"}${tail})`;
}
