/**
 * `decisions simulate`: the discrete-event simulation of the deployed pipeline (simulation/) for
 * one bulk job: hours, instance-hours, cost, peak instances and calls, the 503 share and the
 * interactive latency, as a summary with a sparkline, one JSON object (`--json`) and an SVG chart
 * (`--chart`).
 */
import { writeFileSync } from "node:fs";
import {
  renderSparkline,
  renderTimelineSvg,
  SIMULATION_INPUTS,
  SimulationInputError,
  type SimulationInputs,
  type SimulationResult,
  simulatePipeline,
} from "../../simulation/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

function usage(): string {
  const rows = SIMULATION_INPUTS.map((spec) => {
    const value =
      spec.kind === "boolean" ? " on|off" : spec.kind === "choice" ? ` ${spec.choices?.join("|")}` : " <n>";
    const shown = typeof spec.default === "boolean" ? (spec.default ? "on" : "off") : spec.default;
    const fallback = shown === undefined ? "" : ` (default ${String(shown)})`;
    return `  --${spec.flag}${value}\n      ${spec.doc}${fallback}`;
  });
  return [
    "usage: decisions simulate --lines <N> --min-instances <n> --max-instances <n> [--capacity fixed|follow] [--layout shared|lanes-from-zero] [--bulk-drain-goal-minutes <M>] [--idle-hours <H>] [--json] [--chart <file.svg>] [flags]",
    "",
    "Simulates a bulk job through the deployed pipeline (SQS, event sources, decide functions, the",
    "endpoint's instances and autoscaling, the job ledger) on simulated time; seeded, so the same",
    "flags give the same result. What it models and assumes: docs/simulation.md.",
    "",
    "  --json            print one JSON object (without the timeline unless --timeline)",
    "  --timeline        include the timeline (a point every few simulated seconds) in the JSON",
    "  --chart <file>    write an SVG chart of instances and backlog over time",
    ...rows,
    "",
  ].join("\n");
}

/** Builds the `decisions simulate` command writing to `stdout` (tests pass their own). */
export function createSimulateCommand(output: Partial<Pick<CliOutput, "stdout">> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  return {
    async run(args) {
      const options: Record<string, { type: "string" | "boolean"; short?: string }> = {
        help: { type: "boolean", short: "h" },
        json: { type: "boolean" },
        timeline: { type: "boolean" },
        chart: { type: "string" },
      };
      for (const spec of SIMULATION_INPUTS) options[spec.flag] = { type: "string" };
      const { values } = parseCommandArgs({ args, options, usage: usage() });
      if (values.help === true) {
        stdout.write(usage());
        return 0;
      }
      const inputs = inputsOf(values as Record<string, string | boolean | undefined>);
      let result: SimulationResult;
      try {
        result = simulatePipeline(inputs);
      } catch (error) {
        if (error instanceof SimulationInputError)
          throw new UsageError(error.message, { cause: error, usage: usage() });
        throw error;
      }
      const chart = values.chart;
      if (typeof chart === "string") {
        writeFileSync(chart, renderTimelineSvg(result.timeline, { title: titleOf(result) }));
      }
      if (values.json === true) {
        stdout.write(
          `${JSON.stringify(values.timeline === true ? result : { ...result, timeline: undefined })}\n`,
        );
      } else {
        stdout.write(formatSummary(result, typeof chart === "string" ? chart : undefined));
      }
      return result.finished ? 0 : 1;
    },
  };
}

/** The flags' values as simulation inputs; a value that is not a number is a usage error naming the flag. */
function inputsOf(values: Record<string, string | boolean | undefined>): Partial<SimulationInputs> {
  const inputs: Record<string, unknown> = {};
  for (const spec of SIMULATION_INPUTS) {
    const text = values[spec.flag];
    if (typeof text !== "string") continue;
    if (spec.kind === "choice") inputs[spec.key] = text;
    else if (spec.kind === "boolean") {
      if (text !== "on" && text !== "off")
        throw new UsageError(`--${spec.flag} must be on or off, got "${text}"`);
      inputs[spec.key] = text === "on";
    } else {
      const value = Number(text.replace(/_/g, ""));
      if (text.trim() === "" || !Number.isFinite(value)) {
        throw new UsageError(`--${spec.flag} must be a number, got "${text}"`, { usage: usage() });
      }
      inputs[spec.key] = value;
    }
  }
  return inputs as Partial<SimulationInputs>;
}

function titleOf(result: SimulationResult): string {
  return `${result.lines.toLocaleString("en-US")} lines, capacity ${result.capacity}, ${result.layout}${result.lanes ? ", lanes" : ""}: ${result.job_hours.toFixed(2)} h, peak ${result.peak_in_service_instances} instances`;
}

function formatSummary(result: SimulationResult, chart: string | undefined): string {
  const r = result;
  const lines = [
    `${r.lines.toLocaleString("en-US")} lines, capacity ${r.capacity}, layout ${r.layout}, lanes ${r.lanes ? "on" : "off"}${r.idle_hours > 0 ? `, after ${r.idle_hours} h idle` : ""}${r.finished ? "" : " (NOT finished within --max-hours)"}`,
    `  job              ${r.job_hours.toFixed(2)} h (first line ${Number.isFinite(r.first_line_s) ? `${r.first_line_s} s` : "—"}${r.stated_first_line_s === null ? "" : `, stated at most ${r.stated_first_line_s} s from zero`}, ${r.lines_per_s} lines/s)`,
    `  goal             ${r.bulk_drain_goal_minutes} min: ${r.met_goal ? "met" : "not met"}${r.goal_within_max ? "" : " (it needs more than --max-instances)"}`,
    `  instance-hours   ${r.instance_hours} paid (bulk ${r.bulk_instance_hours}), ${r.busy_instance_hours} busy, paid ÷ busy ${r.paid_over_busy ?? "—"}${r.cost === null ? "" : `; cost ${r.cost}`}`,
    `  instances        peak ${r.peak_in_service_instances} InService, ${r.peak_busy_instances} busy; back at the minimum after ${r.scaling.back_to_min_hours ?? "—"} h`,
    `  calls            ${r.endpoint_calls} (peak ${r.peak_calls_in_flight} in flight), 503 share ${r.refused_share}, retries ${r.retries}, re-queued lines ${r.requeued_lines}`,
    `  lines            ${r.decided_lines} decided, ${r.dead_lettered_lines} dead-lettered`,
    `  sizing           bulk MaximumConcurrency ${r.sizing.max_concurrency} × ${r.sizing.groups_per_invocation} group(s) at the start`,
    ...(r.interactive.items > 0
      ? [
          `  interactive      ${r.interactive.items} items: p50 ${r.interactive.p50_s} s, p95 ${r.interactive.p95_s} s, max ${r.interactive.max_s} s`,
        ]
      : []),
    `  InService        ${renderSparkline(r.timeline.map((p) => p.in_service))}`,
    `  busy             ${renderSparkline(r.timeline.map((p) => p.busy))}`,
    `  backlog          ${renderSparkline(r.timeline.map((p) => p.backlog))}`,
    ...(chart === undefined ? [] : [`  chart            ${chart}`]),
    "",
  ];
  return lines.join("\n");
}

/** The `decisions simulate` command, writing to the process's stdout. */
export const simulateCommand: CliCommand = createSimulateCommand();
