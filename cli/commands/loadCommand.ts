/**
 * `decisions load`: a bounded load run on loopback (issue 11, "Load"). Starts the adapter as its
 * own process on a generated model (or `--model`), optionally the local SageMaker gateway in front
 * of it, and sends System One requests from `--connections` clients for `--duration` seconds with
 * autocannon. Prints one JSON line per target: requests, statuses, 503s with and without
 * Retry-After, cross-talk, latency percentiles, the adapter's RSS and descriptors from start to
 * end, and its state files; for the gateway also its own process's RSS and descriptors and its
 * calls to the adapter that failed before an answer (count, and count by error).
 */

import { type LoadReport, runLoad, startLoadTarget } from "../../lab/reliability/index.js";
import type { UpstreamFailures } from "../../local/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const TARGETS = ["adapter", "gateway", "both"] as const;

function usage(): string {
  return [
    "usage: decisions load [--target adapter|gateway|both] [--connections N] [--duration S] [--warmup S] [--rate R]",
    "                      [--model FILE.gguf] [--threads N] [-- <decisions serve flags>]",
    "",
    "Loads the adapter (and/or the local SageMaker gateway in front of it) on 127.0.0.1 with",
    "System One requests, each with its own question ids, and prints one JSON report per target.",
    "Each target first gets --warmup seconds of the same load (not counted), so RSS growth is",
    "measured from processes that have reached their working set for that many connections.",
    "",
    "  --target       adapter, gateway or both (default both)",
    "  --connections  concurrent clients (default 50)",
    "  --duration     seconds per target (default 60)",
    "  --model        a GGUF to serve (default: the generated tiny-qwen3)",
    "  --threads      llama.cpp threads of the adapter (default 2)",
    "  --warmup       seconds of the same load before measuring (default 30; 0 for none)",
    "  --rate         requests per second per client at most (default: as fast as answered)",
    "  after --       flags for the adapter, e.g. -- --max-in-flight 2 --queue-depth 16",
    "",
  ].join("\n");
}

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`--${name} must be a positive integer, got "${text}"`);
  return value;
}

function nonNegativeInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new UsageError(`--${name} must be a whole number of seconds, got "${text}"`);
  return value;
}

/** The report without its per-second samples (kept out of the printed line). */
function printable(target: string, report: LoadReport): Record<string, unknown> {
  const strip = (sampled: LoadReport["process"]) =>
    sampled === undefined ? undefined : { ...sampled, samples: sampled.samples.length };
  return {
    target,
    ...report,
    process: strip(report.process),
    alsoSampled: Object.fromEntries(
      Object.entries(report.alsoSampled).map(([name, value]) => [name, strip(value)]),
    ),
  };
}

/** Builds the `decisions load` command writing to `output` (tests pass their own). */
export function createLoadCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values, positionals } = parseCommandArgs({
        args,
        options: {
          help: { type: "boolean", short: "h" },
          target: { type: "string" },
          connections: { type: "string" },
          duration: { type: "string" },
          model: { type: "string" },
          threads: { type: "string" },
          rate: { type: "string" },
          warmup: { type: "string" },
        },
        allowPositionals: true,
        usage: usage(),
      });
      if (values.help === true) {
        stdout.write(usage());
        return 0;
      }
      const target = (values.target ?? "both") as (typeof TARGETS)[number];
      if (!TARGETS.includes(target)) throw new UsageError(`--target must be one of ${TARGETS.join(", ")}`);
      const connections = positiveInteger("connections", values.connections, 50);
      const durationSeconds = positiveInteger("duration", values.duration, 60);
      const threads = positiveInteger("threads", values.threads, 2);
      const rate = values.rate === undefined ? undefined : positiveInteger("rate", values.rate, 1);
      const warmupSeconds = values.warmup === undefined ? 30 : nonNegativeInteger("warmup", values.warmup);
      const running = await startLoadTarget({
        ...(values.model !== undefined ? { model: values.model } : {}),
        threads,
        adapterArgs: positionals,
        gateway: target !== "adapter",
        env: process.env,
      });
      try {
        const runs: [string, () => Promise<LoadReport & { upstreamFailures?: UpstreamFailures }>][] = [];
        const common = {
          connections,
          durationSeconds,
          pid: running.adapter.pid,
          stateDir: running.stateDir,
          warmupSeconds,
          ...(rate !== undefined ? { connectionRate: rate } : {}),
        };
        if (target !== "gateway")
          runs.push(["adapter", () => runLoad({ ...common, url: running.adapter.url })]);
        if (target !== "adapter" && running.gateway !== undefined) {
          const gateway = running.gateway;
          runs.push([
            "gateway",
            async () => {
              const report = await runLoad({
                ...common,
                url: gateway.url,
                path: running.gatewayPath,
                ...(gateway.pid !== undefined ? { alsoSample: { gateway: gateway.pid } } : {}),
              });
              // Only this run sends through the gateway: all it has logged is this run's.
              return { ...report, upstreamFailures: gateway.upstreamFailures() };
            },
          ]);
        }
        for (const [name, run] of runs) {
          stderr.write(`loading the ${name} with ${connections} clients for ${durationSeconds} s …\n`);
          stdout.write(`${JSON.stringify(printable(name, await run()))}\n`);
        }
        return 0;
      } finally {
        await running.stop();
      }
    },
  };
}

/** The `decisions load` command, writing to the process's stdout and stderr. */
export const loadCommand: CliCommand = createLoadCommand();
