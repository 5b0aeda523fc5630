/**
 * `decisions bench`: measures the engine and the adapter against node-llama-cpp used directly
 * (their floor) and against the standard generation path, side by side in one run.
 */
import type { CliCommand } from "../types.js";
import { BENCH_USAGE, planBench } from "./planBench.js";

/**
 * The `bench` sub-command: {@link planBench} decides the run from the flags; this loads that run's
 * module only then (each starts models, servers or the whole local stack), gives it the process's
 * environment, prints the table and where the JSON (and SVG) went.
 */
export const benchCommand: CliCommand = {
  async run(args) {
    const plan = planBench(args);
    switch (plan.mode) {
      case "help":
        process.stdout.write(BENCH_USAGE);
        return 0;
      case "llama-server": {
        // It builds and starts llama-server.
        const { formatLlamaServerReport, runLlamaServerBench } = await import(
          "../../lab/bench/llamaServer/index.js"
        );
        const { report, jsonPath } = await runLlamaServerBench({ ...plan.options, env: process.env });
        return printed(formatLlamaServerReport(report), jsonPath);
      }
      case "backlog": {
        // It starts the whole local stack.
        const { formatBacklogReport, runBacklogBench } = await import("../../lab/bench/backlog/index.js");
        const { report, jsonPath } = await runBacklogBench({ ...plan.options, env: process.env });
        printed(formatBacklogReport(report), jsonPath);
        return report.goal_met ? 0 : 1;
      }
      case "lanes": {
        // It starts the whole local stack.
        const { formatLanesReport, runLanesBench } = await import("../../lab/bench/lanes/index.js");
        const { report, jsonPath } = await runLanesBench({ ...plan.options, env: process.env });
        printed(formatLanesReport(report), jsonPath ?? "(nothing)");
        return report.goals_met ? 0 : 1;
      }
      case "job": {
        // It starts the whole local stack.
        const { formatJobReport, runJobBench } = await import("../../lab/bench/jobs/index.js");
        const { report, jsonPath, svgPath } = await runJobBench({ ...plan.options, env: process.env });
        process.stdout.write(formatJobReport(report));
        process.stdout.write(`\nwrote ${jsonPath}\nwrote ${svgPath}\n`);
        return 0;
      }
      case "pipeline": {
        // It starts the whole local stack.
        const { formatPipelineReport, runPipelineBench } = await import("../../lab/bench/pipeline/index.js");
        const { report, jsonPath } = await runPipelineBench({ ...plan.options, env: process.env });
        return printed(formatPipelineReport(report), jsonPath);
      }
      case "adapter": {
        // It loads the model into the engine, node-llama-cpp and the HTTP adapter.
        const [{ runBench }, { formatReport }] = await Promise.all([
          import("../../lab/bench/runBench.js"),
          import("../../lab/bench/formatReport.js"),
        ]);
        const { report, jsonPath, svgPath } = await runBench(plan.options);
        process.stdout.write(formatReport(report));
        process.stdout.write(`\nwrote ${jsonPath}\nwrote ${svgPath}\n`);
        return 0;
      }
      default:
        return unreachable(plan);
    }
  },
};

/** Prints a separate run's table and where its JSON went; the exit code. */
function printed(table: string, jsonPath: string): number {
  process.stdout.write(table);
  process.stdout.write(`\nwrote ${jsonPath}\n`);
  return 0;
}

/** A mode the switch does not handle fails to compile here. */
function unreachable(plan: never): never {
  throw new Error(`decisions bench has no run for the plan ${JSON.stringify(plan)}`);
}
