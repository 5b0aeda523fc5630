import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { JobStepReport, JobStepRequest } from "./jobStepProtocol.js";

/** A job step's child process, started and ready (modules loaded) before its step is given. */
export interface JobStep {
  pid: number | undefined;
  /** Gives the step and resolves with the child's report once it has exited. */
  run(request: JobStepRequest): Promise<JobStepReport>;
  /** Kills the child if it still runs. */
  kill(): Promise<void>;
}

/**
 * Forks `jobStepProcessMain` (through tsx when running from the sources) and waits until it
 * reports ready, so that the time of its step does not hold the process's start.
 *
 * @throws Error with the child's output when it exits before it is ready.
 */
export async function startJobStep(): Promise<JobStep> {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(`./jobStepProcessMain.${fromSources ? "ts" : "js"}`, import.meta.url));
  const child: ChildProcess = fork(entry, [], {
    execArgv: fromSources ? ["--import", import.meta.resolve("tsx")] : [],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-8192);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = once(child, "exit");
  const first = await Promise.race([
    once(child, "message").then(([message]) => message as { ready?: boolean }),
    exited.then(() => undefined),
  ]);
  if (first?.ready !== true) throw new Error(`the job step process did not start: ${output}`);
  return {
    pid: child.pid,
    async run(request) {
      const reported = once(child, "message").then(([message]) => message as JobStepReport);
      child.send(request);
      const report = await Promise.race([reported, exited.then(() => undefined)]);
      await exited;
      if (report === undefined)
        return { ok: false, error: `the job step process exited without a report: ${output}` };
      return report;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}
