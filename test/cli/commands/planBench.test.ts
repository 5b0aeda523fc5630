import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BENCH_USAGE, type BenchPlan, planBench } from "../../../cli/commands/planBench.js";
import { UsageError } from "../../../cli/errors.js";
import { runCli } from "../../../cli/main.js";

/** Runs `decisions <argv>` through the real registry, its stderr captured. */
async function decisions(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await runCli(argv, {
    output: {
      stdout: { write: () => assert.fail("nothing is written to stdout") },
      stderr: { write: (text: string) => (stderr += text) },
    },
  });
  return { code, stderr };
}

/** The UsageError `planBench(args)` throws. */
function usageErrorOf(args: string[]): UsageError {
  let thrown: unknown;
  try {
    planBench(args);
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof UsageError, `planBench(${args.join(" ")}) throws a UsageError`);
  return thrown;
}

describe("planBench", () => {
  it("plans the help for --help and -h, whatever else is given", () => {
    for (const args of [["--help"], ["-h"], ["--pipeline", "--lanes", "--help"]]) {
      const plan = planBench(args);

      assert.deepStrictEqual(plan, { mode: "help" } satisfies BenchPlan, args.join(" "));
    }
  });

  it("plans the adapter bench without a mode flag: the common flags as given, HTTP and P9 on", () => {
    const plan = planBench([]);

    assert.deepStrictEqual(plan, {
      mode: "adapter",
      options: {
        quick: false,
        modelPath: undefined,
        threads: undefined,
        outDir: undefined,
        http: true,
        parallel: true,
      },
    } satisfies BenchPlan);
  });

  it("plans the adapter bench with every one of its flags", () => {
    const plan = planBench([
      "--quick",
      "--model",
      "m.gguf",
      "--threads",
      "3",
      "--out",
      "d",
      "--no-http",
      "--no-parallel",
    ]);

    assert.deepStrictEqual(plan, {
      mode: "adapter",
      options: { quick: true, modelPath: "m.gguf", threads: 3, outDir: "d", http: false, parallel: false },
    } satisfies BenchPlan);
  });

  it("plans --pipeline with the common flags, present as undefined where not given", () => {
    const given = planBench(["--pipeline", "--quick", "--out", "d", "--model", "m.gguf", "--threads", "2"]);
    const bare = planBench(["--pipeline"]);

    assert.deepStrictEqual(given, {
      mode: "pipeline",
      options: { quick: true, modelPath: "m.gguf", threads: 2, outDir: "d" },
    } satisfies BenchPlan);
    assert.deepStrictEqual(bare, {
      mode: "pipeline",
      options: { quick: false, modelPath: undefined, threads: undefined, outDir: undefined },
    } satisfies BenchPlan);
  });

  it("plans --llama-server with flash attention auto by default, and the value and AMX as given", () => {
    const bare = planBench(["--llama-server"]);
    const given = planBench(["--llama-server", "--llama-server-fa", "on", "--llama-server-amx", "--quick"]);

    assert.deepStrictEqual(bare, {
      mode: "llama-server",
      options: {
        quick: false,
        modelPath: undefined,
        threads: undefined,
        outDir: undefined,
        flashAttention: "auto",
        llamaServerAmx: false,
      },
    } satisfies BenchPlan);
    assert.deepStrictEqual(given, {
      mode: "llama-server",
      options: {
        quick: true,
        modelPath: undefined,
        threads: undefined,
        outDir: undefined,
        flashAttention: "on",
        llamaServerAmx: true,
      },
    } satisfies BenchPlan);
  });

  it("plans --backlog with only the counts given, --groups as maxConcurrentGroups", () => {
    const given = planBench(["--backlog", "--items", "5", "--busy", "1", "--groups", "2"]);
    const all = planBench(["--backlog", "--rounds", "4", "--instances", "3", "--busy", "0"]);

    assert.deepStrictEqual(given, {
      mode: "backlog",
      options: {
        quick: false,
        modelPath: undefined,
        threads: undefined,
        outDir: undefined,
        items: 5,
        busy: 1,
        maxConcurrentGroups: 2,
      },
    } satisfies BenchPlan);
    assert.deepStrictEqual(all, {
      mode: "backlog",
      options: {
        quick: false,
        modelPath: undefined,
        threads: undefined,
        outDir: undefined,
        busy: 0,
        rounds: 4,
        instances: 3,
      },
    } satisfies BenchPlan);
  });

  it("plans --lanes with lines, rate and busy as given", () => {
    const given = planBench(["--lanes", "--lines", "300", "--rate", "0.5", "--busy", "2", "--quick"]);
    const bare = planBench(["--lanes"]);

    assert.deepStrictEqual(given, {
      mode: "lanes",
      options: {
        quick: true,
        modelPath: undefined,
        threads: undefined,
        outDir: undefined,
        lines: 300,
        rate: 0.5,
        busy: 2,
      },
    } satisfies BenchPlan);
    assert.deepStrictEqual(bare, {
      mode: "lanes",
      options: { quick: false, modelPath: undefined, threads: undefined, outDir: undefined },
    } satisfies BenchPlan);
  });

  it("plans --job with only the flags given, and no quick", () => {
    const given = planBench(["--job", "--lines", "10", "--batch-size", "5"]);
    const common = planBench(["--job", "--model", "m.gguf", "--threads", "1", "--out", "d", "--quick"]);
    const bare = planBench(["--job"]);

    assert.deepStrictEqual(given, { mode: "job", options: { lines: 10, batchSize: 5 } } satisfies BenchPlan);
    assert.deepStrictEqual(common, {
      mode: "job",
      options: { modelPath: "m.gguf", threads: 1, outDir: "d" },
    } satisfies BenchPlan);
    assert.deepStrictEqual(bare, { mode: "job", options: {} } satisfies BenchPlan);
  });

  it("refuses two modes at once", () => {
    const pairs = [
      ["--pipeline", "--lanes"],
      ["--llama-server", "--backlog"],
      ["--job", "--lanes"],
      ["--backlog", "--pipeline", "--job"],
    ];
    for (const args of pairs) {
      assert.equal(
        usageErrorOf(args).message,
        "--pipeline, --llama-server, --backlog, --job and --lanes are separate runs: give one",
        args.join(" "),
      );
    }
  });

  it("refuses a flag of another mode, naming the modes it belongs to", () => {
    const cases: ReadonlyArray<[string[], string]> = [
      [["--lines", "3"], "--lines belongs to --job and --lanes"],
      [["--pipeline", "--lines", "3"], "--lines belongs to --job and --lanes"],
      [["--rate", "1"], "--rate belongs to --lanes"],
      [["--job", "--rate", "1"], "--rate belongs to --lanes"],
      [["--batch-size", "2"], "--batch-size belongs to --job"],
      [["--lanes", "--batch-size", "2"], "--batch-size belongs to --job"],
      [["--busy", "1"], "--busy belongs to --backlog and --lanes"],
      [["--job", "--busy", "1"], "--busy belongs to --backlog and --lanes"],
      [["--items", "2"], "--items, --rounds, --instances and --groups belong to --backlog"],
      [["--lanes", "--rounds", "2"], "--items, --rounds, --instances and --groups belong to --backlog"],
      [["--pipeline", "--instances", "2"], "--items, --rounds, --instances and --groups belong to --backlog"],
      [["--groups", "2"], "--items, --rounds, --instances and --groups belong to --backlog"],
    ];
    for (const [args, message] of cases) {
      assert.equal(usageErrorOf(args).message, message, args.join(" "));
    }
  });

  it("refuses a --threads that is not a positive integer, before any other check", () => {
    for (const value of ["0", "-1", "1.5", "x"]) {
      assert.equal(
        usageErrorOf(["--threads", value]).message,
        `--threads must be a positive integer, got ${value}`,
      );
    }

    assert.equal(
      usageErrorOf(["--threads", "x", "--pipeline", "--lanes"]).message,
      "--threads must be a positive integer, got x",
    );
  });

  it("refuses a --rate that is not above 0 and up to 100", () => {
    for (const value of ["0", "-1", "100.5", "x", "Infinity"]) {
      assert.equal(
        usageErrorOf(["--lanes", "--rate", value]).message,
        `--rate must be a number of items per second above 0 and up to 100, got "${value}"`,
      );
    }

    assert.equal(planBench(["--lanes", "--rate", "100"]).mode, "lanes");
  });

  it("refuses a count out of its range or not whole, naming the flag and the range", () => {
    const cases: ReadonlyArray<[string[], string]> = [
      [["--backlog", "--items", "0"], '--items must be an integer from 1 to 1000000, got "0"'],
      [["--backlog", "--busy", "65"], '--busy must be an integer from 0 to 64, got "65"'],
      [["--backlog", "--rounds", "101"], '--rounds must be an integer from 1 to 100, got "101"'],
      [["--backlog", "--instances", "2.5"], '--instances must be an integer from 1 to 64, got "2.5"'],
      [["--backlog", "--groups", "65"], '--groups must be an integer from 1 to 64, got "65"'],
      [["--lanes", "--lines", "1000001"], '--lines must be an integer from 1 to 1000000, got "1000001"'],
      [["--lanes", "--busy", "-1"], '--busy must be an integer from 0 to 64, got "-1"'],
      [["--job", "--lines", "0"], '--lines must be an integer from 1 to 1000000, got "0"'],
      [["--job", "--batch-size", "10001"], '--batch-size must be an integer from 1 to 10000, got "10001"'],
    ];
    for (const [args, message] of cases) {
      assert.equal(usageErrorOf(args).message, message, args.join(" "));
    }
  });

  it("refuses a --llama-server-fa other than auto, on or off", () => {
    assert.equal(
      usageErrorOf(["--llama-server", "--llama-server-fa", "yes"]).message,
      '--llama-server-fa must be auto, on or off, got "yes"',
    );
  });

  it("refuses an unknown flag and a flag without its value, carrying the usage", () => {
    for (const args of [["--bogus"], ["--threads"], ["extra"]]) {
      const error = usageErrorOf(args);

      assert.equal(error.usage, BENCH_USAGE, args.join(" "));
    }
  });
});

describe("decisions bench's dispatch", () => {
  it("answers two modes at once with the usage error and exit code 2, starting nothing", async () => {
    const { code, stderr } = await decisions(["bench", "--pipeline", "--lanes"]);

    assert.equal(code, 2);
    assert.equal(
      stderr,
      "decisions bench: --pipeline, --llama-server, --backlog, --job and --lanes are separate runs: give one\n",
    );
  });

  it("answers an out-of-range count of a mode with its usage error and exit code 2", async () => {
    const { code, stderr } = await decisions(["bench", "--job", "--batch-size", "0"]);

    assert.equal(code, 2);
    assert.equal(stderr, 'decisions bench: --batch-size must be an integer from 1 to 10000, got "0"\n');
  });

  it("prints the usage for decisions help bench, exit code 0", async (t) => {
    const written: string[] = [];
    // The command writes its usage to the process's stdout; the mock is restored after this test.
    t.mock.method(process.stdout, "write", (text: string) => written.push(text) > 0);

    const { code, stderr } = await decisions(["help", "bench"]);

    assert.equal(code, 0);
    assert.equal(stderr, "");
    assert.equal(written.join(""), BENCH_USAGE);
  });
});
