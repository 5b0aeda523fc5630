/**
 * `decisions chaos`: the local pipeline, both lanes, under injected faults (503s, slow answers near
 * the deadline, the adapter and DynamoDB Local stopped and restarted, the function host killed
 * mid-batch, poison and duplicate messages, some items sent in both lanes), then a check from the
 * table and both DLQs that every work item ended exactly once, per lane and across lanes. Exits 1
 * when it did not.
 */
import { writeFile } from "node:fs/promises";
import { formatChaosReport, runChaos } from "../../lab/chaos/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand } from "../types.js";

const USAGE = `usage: decisions chaos [--messages N] [--seed S] [options]

Runs the local pipeline (DynamoDB Local, fauxqs, the adapter, the SageMaker gateway, each lane's
decide function under its SQS event source poller) with work in both lanes, interleaved (about 60%
of the items in bulk, the rest in interactive, some items sent once in each), while a seeded
schedule of faults fires on both; then checks from a Scan of the outcomes table and both lanes'
DLQs that every work item ended exactly once, per lane and across lanes, and that nothing was
dead-lettered for being busy or into the other lane's DLQ. The report gives the numbers per lane.

  --messages N        messages to send, poison and duplicates included (default 1000; at least 30)
  --seed S            seed of the workload, the fault schedule and each call's fault (default 1)
  --bulk-share X      share of the valid items sent in the bulk lane, the rest in interactive
                      (default 0.6)
  --window-scale X    multiplies every fault window (default 1; DynamoDB's outage stays >= 3 s)
  --model <gguf>      model to serve (default: the generated tiny-qwen3 demo model)
  --threads N         llama.cpp threads of the adapter (default: the cores it may use)
  --property-cases N  fast-check cases of the record parser and of the policy loader, run first
                      (default 10000; 0 skips them)
  --json <file>       also write the full result as JSON
`;

/** The `chaos` sub-command. */
export const chaosCommand: CliCommand = {
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      options: {
        messages: { type: "string" },
        seed: { type: "string" },
        "window-scale": { type: "string" },
        "bulk-share": { type: "string" },
        model: { type: "string" },
        threads: { type: "string" },
        json: { type: "string" },
        "property-cases": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      usage: USAGE,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const messages = integer(values.messages, "--messages", 30, 10_000_000) ?? 1000;
    const seed = integer(values.seed, "--seed", 0, 2 ** 32 - 1) ?? 1;
    const threads = integer(values.threads, "--threads", 1, 1024);
    const propertyCases = integer(values["property-cases"], "--property-cases", 0, 10_000_000) ?? 10_000;
    const windowScale = values["window-scale"] === undefined ? 1 : Number(values["window-scale"]);
    if (!(windowScale > 0 && windowScale <= 100)) {
      throw new UsageError(`--window-scale must be a number in (0, 100], got ${values["window-scale"]}`, {
        usage: USAGE,
      });
    }
    const bulkShare = values["bulk-share"] === undefined ? undefined : Number(values["bulk-share"]);
    if (bulkShare !== undefined && !(bulkShare >= 0 && bulkShare <= 1)) {
      throw new UsageError(`--bulk-share must be a number in [0, 1], got ${values["bulk-share"]}`, {
        usage: USAGE,
      });
    }
    const result = await runChaos({
      env: process.env,
      messages,
      ...(bulkShare !== undefined ? { bulkShare } : {}),
      seed,
      windowScale,
      model: values.model,
      adapterThreads: threads,
      propertyCases,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(formatChaosReport(result));
    if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(result, null, 2)}\n`);
    return result.ok ? 0 : 1;
  },
};

function integer(text: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`, { usage: USAGE });
  }
  return value;
}
