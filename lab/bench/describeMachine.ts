import { cpus, totalmem } from "node:os";

/** The machine a bench report was measured on. */
export interface BenchMachine {
  cpu: string;
  cores: number;
  memory_gib: number;
  node: string;
}

/** The CPU model, core count, memory and Node.js version of this machine, for a bench report. */
export function describeMachine(): BenchMachine {
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}
