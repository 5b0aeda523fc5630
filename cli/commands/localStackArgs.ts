/**
 * The flags `decisions start` and `decisions up` share: the model, ports and settings of the local
 * stack. One table writes the usage text and parses the values.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { StartLocalStackOptions } from "../../local/index.js";
import { UsageError } from "../errors.js";

/** The environment variable naming the model when `--model` is not given. */
export const MODEL_ENV = "DECISIONS_MODEL";

const PORT_FLAGS = {
  "dynamodb-port": "DynamoDB Local",
  "sqs-port": "fauxqs (SQS and S3)",
  "gateway-port": "the SageMaker gateway",
  "adapter-port": "the adapter",
} as const;

/** `util.parseArgs` options of the shared flags. */
export function localStackFlags() {
  return {
    help: { type: "boolean", short: "h" },
    model: { type: "string" },
    threads: { type: "string" },
    java: { type: "string" },
    region: { type: "string" },
    "data-dir": { type: "string" },
    "function-log-level": { type: "string" },
    ...Object.fromEntries(Object.keys(PORT_FLAGS).map((flag) => [flag, { type: "string" }])),
  } as const satisfies Record<string, { type: "string" | "boolean"; short?: string }>;
}

/** The usage lines of the shared flags. */
export function localStackUsage(): string[] {
  return [
    `  --model <file.gguf>          the model to serve (env ${MODEL_ENV}); default: a generated demo model`,
    "                               with random weights (answers meaningless, pipeline real). A hub file,",
    "                               hf:<owner>/<name>/<file.gguf>[@<revision>], is pulled once (pinned,",
    "                               verified) into .cache/hub and served from there (HF_ENDPOINT, HF_TOKEN)",
    "  --threads <n>                llama.cpp threads of the adapter (default: the cores it may use)",
    "  --java <path>                the java command for DynamoDB Local (default: java on PATH)",
    "  --region <name>              region of the clients and ARNs (default us-east-1)",
    "  --data-dir <folder>          keep DynamoDB Local's tables in this folder (default: in memory)",
    "  --function-log-level <level> the decide function's Powertools log level (default: up WARN, on",
    "                               stderr; start SILENT)",
    ...Object.entries(PORT_FLAGS).map(
      ([flag, part]) => `  --${flag.padEnd(27)}port of ${part} (default: a free one)`,
    ),
    "Every part listens on 127.0.0.1 only.",
  ];
}

/** Parsed shared flags: the stack's options and the decide function's log level. */
export interface LocalStackArgs {
  stack: Omit<StartLocalStackOptions, "createHandler" | "log">;
  functionLogLevel: "DEBUG" | "INFO" | "WARN" | "ERROR" | "SILENT";
}

const LOG_LEVELS = ["DEBUG", "INFO", "WARN", "ERROR", "SILENT"] as const;

/**
 * Turns the shared flags' values into stack options.
 * @param env the process environment, read once here at the command's entry; the stack's child
 *   processes start from it (`stack.env`).
 * @throws UsageError naming the flag for a bad port, thread count or log level.
 */
export function readLocalStackArgs(
  values: Record<string, string | boolean | undefined>,
  env: Readonly<Record<string, string | undefined>>,
  usage: string,
  /** The log level without `--function-log-level`. Default `"SILENT"`. */
  defaultLogLevel: LocalStackArgs["functionLogLevel"] = "SILENT",
): LocalStackArgs {
  const text = (flag: string): string | undefined => {
    const value = values[flag];
    return typeof value === "string" ? value : undefined;
  };
  const integer = (flag: string, min: number, max: number): number | undefined => {
    const value = text(flag);
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${value}"`, { usage });
    }
    return number;
  };
  const level = (text("function-log-level") ?? defaultLogLevel).toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`--function-log-level must be one of ${LOG_LEVELS.join(", ")}, got "${level}"`, {
      usage,
    });
  }
  const model = text("model") ?? (env[MODEL_ENV]?.trim() || undefined);
  return {
    stack: {
      // The environment DynamoDB Local and the adapter start from.
      env,
      model,
      region: text("region"),
      java: text("java"),
      dataDir: text("data-dir"),
      adapterThreads: integer("threads", 1, 1024),
      ports: {
        dynamodb: integer("dynamodb-port", 0, 65_535),
        fauxqs: integer("sqs-port", 0, 65_535),
        gateway: integer("gateway-port", 0, 65_535),
        adapter: integer("adapter-port", 0, 65_535),
      },
    },
    functionLogLevel: level as LocalStackArgs["functionLogLevel"],
  };
}

/** `util.parseArgs` options of `--shadow-model` and `--shadow-timeout` (`decisions up` only). */
export function shadowModelFlag() {
  return { "shadow-model": { type: "string" }, "shadow-timeout": { type: "string" } } as const;
}

/** `--shadow-timeout`'s range: the decide function's `SHADOW_TIMEOUT_MS`. */
const SHADOW_TIMEOUT_RANGE = { min: 100, max: 120_000 } as const;

/** The usage lines of `--shadow-model`. */
export function shadowModelUsage(): string[] {
  return [
    "  --shadow-model <file.gguf>   a candidate model for the shadow step: a second adapter serves it as",
    "                               the endpoint <endpoint_name>-candidate, which policies with a `shadow`",
    "                               section ask for their sampled items (default: none)",
    "  --shadow-timeout <ms>        how long the candidate may take per group (SHADOW_TIMEOUT_MS, 100–",
    "                               120000; never past the invocation's deadline) (default 5000)",
  ];
}

/** Parsed `--shadow-model` and `--shadow-timeout`: only those given. */
export interface ShadowModelArgs {
  /** The candidate GGUF, resolved. */
  shadowModel?: string;
  /** The decide function's `SHADOW_TIMEOUT_MS`. */
  shadowTimeoutMs?: number;
}

/**
 * The candidate GGUF of `--shadow-model` (resolved, once it is known to be a file) and the
 * candidate's budget of `--shadow-timeout`.
 * @throws UsageError when the flag names no file (missing, or a folder), or for a budget out of range.
 */
export async function readShadowModelArgs(
  values: Record<string, string | boolean | undefined>,
  usage: string,
): Promise<ShadowModelArgs> {
  const timeout = values["shadow-timeout"];
  let shadowTimeoutMs: number | undefined;
  if (typeof timeout === "string") {
    shadowTimeoutMs = Number(timeout);
    const { min, max } = SHADOW_TIMEOUT_RANGE;
    if (!/^\d+$/.test(timeout) || shadowTimeoutMs < min || shadowTimeoutMs > max) {
      throw new UsageError(`--shadow-timeout must be an integer from ${min} to ${max}, got "${timeout}"`, {
        usage,
      });
    }
  }
  const shadowModel = await readShadowModelPath(values["shadow-model"], usage);
  return {
    ...(shadowModel === undefined ? {} : { shadowModel }),
    ...(shadowTimeoutMs === undefined ? {} : { shadowTimeoutMs }),
  };
}

async function readShadowModelPath(
  value: string | boolean | undefined,
  usage: string,
): Promise<string | undefined> {
  if (typeof value !== "string") return undefined;
  const path = resolve(value);
  const found = await stat(path).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw error;
  });
  if (found === undefined || !found.isFile()) {
    throw new UsageError(
      `--shadow-model ${value}: ${found === undefined ? "no such file" : "not a file"}; give the path of a GGUF model file`,
      { usage },
    );
  }
  return path;
}
