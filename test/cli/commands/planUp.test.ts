import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import {
  planUp,
  readReviewPort,
  type UpOptions,
  type UpPlan,
  upUsage,
} from "../../../cli/commands/planUp.js";
import { UsageError } from "../../../cli/errors.js";

/** The options `planUp(args, env)` plans for a run (failing when it plans the help). */
/** A Standard Webhooks secret: whsec_ and the base64 of 32 bytes. */
const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

function optionsOf(args: string[], env: Record<string, string | undefined> = {}): UpOptions {
  const plan = planUp(args, env);
  assert.equal(plan.mode, "up", args.join(" "));
  return (plan as Extract<UpPlan, { mode: "up" }>).options;
}

/** The UsageError `planUp(args, {})` throws. */
function usageErrorOf(args: string[]): UsageError {
  let thrown: unknown;
  try {
    planUp(args, {});
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof UsageError, `planUp(${args.join(" ")}) throws a UsageError`);
  return thrown;
}

describe("planUp", () => {
  it("plans the help for --help and -h, whatever else is given", () => {
    for (const args of [["--help"], ["-h"], ["--batch-size", "0", "--help"], ["--threads", "x", "-h"]]) {
      const plan = planUp(args, {});

      assert.deepStrictEqual(plan, { mode: "help" } satisfies UpPlan, args.join(" "));
    }
  });

  it("plans a run without flags: every setting left to the stack, WARN logs, this package's policies", () => {
    const env = { HOME: "/home/someone" };

    const options = optionsOf([], env);

    assert.deepStrictEqual(options, {
      stack: {
        env,
        model: undefined,
        region: undefined,
        java: undefined,
        dataDir: undefined,
        adapterThreads: undefined,
        ports: { dynamodb: undefined, fauxqs: undefined, gateway: undefined, adapter: undefined },
      },
      functionLogLevel: "WARN",
      eventSource: { poller: {} },
      policyDir: join(packageRoot(), "policies"),
      shadowFlags: { "shadow-model": undefined, "shadow-timeout": undefined },
      review: { port: undefined, reviewer: undefined },
      webhookSecret: undefined,
    } satisfies UpOptions);
    assert.equal(options.stack.env, env, "the stack's processes start from the environment given");
  });

  it("plans a run with every flag given", () => {
    const options = optionsOf([
      "--model",
      "m.gguf",
      "--threads",
      "3",
      "--java",
      "/opt/java",
      "--region",
      "eu-west-1",
      "--data-dir",
      "data",
      "--function-log-level",
      "debug",
      "--dynamodb-port",
      "8000",
      "--sqs-port",
      "0",
      "--gateway-port",
      "65535",
      "--adapter-port",
      "8080",
      "--policies",
      "my-policies",
      "--review-port",
      "8090",
      "--reviewer",
      "ana",
      "--shadow-model",
      "candidate.gguf",
      "--shadow-timeout",
      "2500",
      "--function-timeout",
      "60",
      "--visibility-timeout",
      "0",
      "--max-receive-count",
      "3",
      "--batch-size",
      "25",
      "--batch-window",
      "1000",
      "--webhook-secret",
      SECRET,
    ]);

    assert.deepStrictEqual(options, {
      stack: {
        env: {},
        model: "m.gguf",
        region: "eu-west-1",
        java: "/opt/java",
        dataDir: "data",
        adapterThreads: 3,
        ports: { dynamodb: 8000, fauxqs: 0, gateway: 65535, adapter: 8080 },
      },
      functionLogLevel: "DEBUG",
      eventSource: {
        functionTimeoutMs: 60_000,
        visibilityTimeoutSeconds: 0,
        maxReceiveCount: 3,
        poller: { batchSize: 25, maximumBatchingWindowMs: 1000 },
      },
      policyDir: resolve("my-policies"),
      shadowFlags: { "shadow-model": "candidate.gguf", "shadow-timeout": "2500" },
      review: { port: 8090, reviewer: "ana" },
      webhookSecret: SECRET,
    } satisfies UpOptions);
  });

  it("refuses a --webhook-secret that is not whsec_ and base64 of 24 bytes or more, saying how to make one", () => {
    assert.throws(
      () => optionsOf(["--webhook-secret", "hunter2"]),
      /must start with whsec_.*openssl rand -base64 32/,
    );
    assert.throws(() => optionsOf(["--webhook-secret", "whsec_c2hvcnQ="]), /at least 24 random bytes/);
  });

  it("takes the model from DECISIONS_MODEL when --model is not given, and --model over it", () => {
    assert.equal(optionsOf([], { DECISIONS_MODEL: " env.gguf " }).stack.model, "env.gguf");
    assert.equal(optionsOf([], { DECISIONS_MODEL: "  " }).stack.model, undefined);
    assert.equal(
      optionsOf(["--model", "flag.gguf"], { DECISIONS_MODEL: "env.gguf" }).stack.model,
      "flag.gguf",
    );
  });

  it("sets only the event-source options given, each alone", () => {
    assert.deepStrictEqual(optionsOf(["--function-timeout", "1"]).eventSource, {
      functionTimeoutMs: 1000,
      poller: {},
    });
    assert.deepStrictEqual(optionsOf(["--visibility-timeout", "43200"]).eventSource, {
      visibilityTimeoutSeconds: 43_200,
      poller: {},
    });
    assert.deepStrictEqual(optionsOf(["--max-receive-count", "1000"]).eventSource, {
      maxReceiveCount: 1000,
      poller: {},
    });
    assert.deepStrictEqual(optionsOf(["--batch-size", "10000"]).eventSource, {
      poller: { batchSize: 10_000 },
    });
    assert.deepStrictEqual(optionsOf(["--batch-window=0"]).eventSource, {
      poller: { maximumBatchingWindowMs: 0 },
    });
  });

  it("refuses an unknown flag, a flag without its value and a positional, carrying the usage", () => {
    for (const [args, message] of [
      [["--bogus"], "Unknown option '--bogus'"],
      [["--threads"], "Option '--threads <value>' argument missing"],
      [["extra"], "Unexpected argument 'extra'"],
    ] as const) {
      const error = usageErrorOf([...args]);

      assert.ok(error.message.includes(message), `${args.join(" ")}: ${error.message}`);
      assert.equal(error.usage, upUsage());
    }
  });

  it("refuses each number and log level out of range, naming the flag and the value", () => {
    for (const [args, message] of [
      [["--threads", "0"], '--threads must be an integer from 1 to 1024, got "0"'],
      [["--threads", "1025"], '--threads must be an integer from 1 to 1024, got "1025"'],
      [["--dynamodb-port", "70000"], '--dynamodb-port must be an integer from 0 to 65535, got "70000"'],
      [["--sqs-port", "-1"], '--sqs-port must be an integer from 0 to 65535, got "-1"'],
      [["--gateway-port", "x"], '--gateway-port must be an integer from 0 to 65535, got "x"'],
      [["--adapter-port", "1.5"], '--adapter-port must be an integer from 0 to 65535, got "1.5"'],
      [
        ["--function-log-level", "loud"],
        '--function-log-level must be one of DEBUG, INFO, WARN, ERROR, SILENT, got "LOUD"',
      ],
      [["--function-timeout", "0"], '--function-timeout must be an integer from 1 to 900, got "0"'],
      [["--function-timeout", "901"], '--function-timeout must be an integer from 1 to 900, got "901"'],
      [["--visibility-timeout", "-1"], '--visibility-timeout must be an integer from 0 to 43200, got "-1"'],
      [
        ["--visibility-timeout", "43201"],
        '--visibility-timeout must be an integer from 0 to 43200, got "43201"',
      ],
      [["--max-receive-count", "many"], '--max-receive-count must be an integer from 1 to 1000, got "many"'],
      [["--max-receive-count", "0"], '--max-receive-count must be an integer from 1 to 1000, got "0"'],
      [["--batch-size", "0"], '--batch-size must be an integer from 1 to 10000, got "0"'],
      [["--batch-size", "10001"], '--batch-size must be an integer from 1 to 10000, got "10001"'],
      [["--batch-window", "1.5"], '--batch-window must be an integer from 0 to 300000, got "1.5"'],
      [["--batch-window", "300001"], '--batch-window must be an integer from 0 to 300000, got "300001"'],
    ] as const) {
      const error = usageErrorOf([...args]);

      assert.equal(error.message, message, args.join(" "));
      assert.equal(error.usage, upUsage());
    }
  });

  it("tells the shared flags' mistake before the event source's", () => {
    const error = usageErrorOf(["--batch-size", "0", "--threads", "0"]);

    assert.equal(error.message, '--threads must be an integer from 1 to 1024, got "0"');
  });

  it("leaves the shadow flags unchecked: the command checks them later, as it must look for the file", () => {
    const options = optionsOf(["--shadow-model", "/no/such.gguf", "--shadow-timeout", "1"]);

    assert.deepStrictEqual(options.shadowFlags, { "shadow-model": "/no/such.gguf", "shadow-timeout": "1" });
  });

  it("refuses a bad --review-port before anything starts, carrying the usage", () => {
    const error = usageErrorOf(["--review-port", "x"]);

    assert.equal(error.message, '--review-port must be a port number (0–65535), not "x"');
    assert.equal(error.usage, upUsage());
  });
});

describe("readReviewPort", () => {
  it("reads a port from 0 to 65535", () => {
    assert.equal(readReviewPort("0", "u"), 0);
    assert.equal(readReviewPort("8090", "u"), 8090);
    assert.equal(readReviewPort("65535", "u"), 65535);
  });

  it("refuses anything else, naming the flag and the value, carrying the usage", () => {
    for (const text of ["65536", "-1", "1.5", "abc"]) {
      assert.throws(
        () => readReviewPort(text, "the usage"),
        (error: unknown) =>
          error instanceof UsageError &&
          error.message === `--review-port must be a port number (0–65535), not "${text}"` &&
          error.usage === "the usage",
        text,
      );
    }
  });
});
