import type { CpuFeatures } from "./readCpuFeatures.js";

/** What {@link crashFixFor} knows about the crash and the ways out. */
export interface CrashFixInput {
  /** The signal that killed the build's process. */
  signal: NodeJS.Signals;
  cpu: CpuFeatures;
  /** Whether the build that crashed may contain ggml's AMX kernels. */
  amxCompiledIn: boolean;
  /** How to get the same build without AMX, e.g. "rebuild with `--variant native`". */
  withoutAmx: string;
  /** How to get a build without native flags, e.g. "use `--variant portable`". */
  portable: string;
}

/**
 * The fix to print with a crashed build, from what the signal and the CPU say: an illegal
 * instruction is code for another CPU; a crash of a build with AMX kernels on a CPU with AMX is
 * most likely those kernels (ggml's AMX path crashes on some hosts: see docs/llama-builds.md);
 * anything else has no known cause, so the way out is the build without native flags.
 */
export function crashFixFor(input: CrashFixInput): string {
  if (input.signal === "SIGILL") {
    return (
      "The build runs an instruction this CPU lacks: a native build is only for the CPU that compiled it. " +
      `Build it on this machine, or ${input.portable}.`
    );
  }
  if (input.amxCompiledIn && input.cpu.amx.length > 0) {
    return (
      `ggml's AMX kernels are the likely cause (this CPU reports ${input.cpu.amx.join(", ")}, and the AMX ` +
      `path crashes on some hosts, virtual machines especially): ${input.withoutAmx}, or ${input.portable}.`
    );
  }
  return `No known cause: ${input.portable}, and report the build and CPU named here.`;
}
