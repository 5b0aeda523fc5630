import { type ChildProcess, spawn } from "node:child_process";

/**
 * `n` CPU-bound shell loops beside the bench, as other work on a shared machine; the caller kills
 * each (SIGKILL) when the run ends. Default none.
 */
export function startBusyProcesses(n = 0): ChildProcess[] {
  return Array.from({ length: n }, () => {
    const child = spawn("sh", ["-c", "while :; do :; done"], { stdio: "ignore" });
    child.unref();
    return child;
  });
}
