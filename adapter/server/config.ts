import { availableParallelism } from "node:os";
import { ConfigError } from "./errors.js";
import { LOG_LEVELS, type LogLevel } from "./logger.js";

/**
 * Everything the server is configured with. Read once at the entry point by
 * {@link readServerConfig}; code below it receives this object and never reads `process.env`.
 */
export interface ServerConfig {
  /** Interface to bind. Default `127.0.0.1`; the images set `0.0.0.0`. */
  host: string;
  /** TCP port. Default 8080 (SageMaker's). */
  port: number;
  /** Explicit GGUF path; when absent the model is discovered under {@link ServerConfig.modelDir}. */
  modelPath: string | undefined;
  /** Where SageMaker unpacks the model: exactly one `.gguf` here or one folder below. Default `/opt/ml/model`. */
  modelDir: string;
  /** Refuse to serve a GGUF without a `model-manifest.json` beside it. Default true. */
  requireManifest: boolean;
  /** CPU threads for llama.cpp. Default: the machine's available parallelism. */
  threads: number;
  /** Layers offloaded to the GPU: -1 all, 0 none (CPU), N that many. Default 0. */
  gpuLayers: number;
  /** Context size in tokens: no prompt may be longer. Default 8192. */
  contextSize: number;
  /** Tokens evaluated per decode step. Default 512. */
  batchSize: number;
  /** Largest request body in bytes. Default 4 MiB (64 decisions repeating a 15k-character state fit). */
  maxBodyBytes: number;
  /** Most options per question; further capped by the model's label alphabet. Default 255. */
  maxOptions: number;
  /** Most decisions of a `decisions` request, or questions of a System One request. Default 64. */
  maxQuestions: number;
  /** Most tokens of one prompt; at most the context size. Default: the context size. */
  maxPromptTokens: number;
  /** Most tokens one request evaluates (shared prefix once plus each question's suffix). Default 32768. */
  maxRequestTokens: number;
  /** Most tokens a chat completion may generate. Default 512. */
  maxCompletionTokens: number;
  /** Requests running against the engine at once. Default 1 (the engine serialises scoring anyway). */
  maxInFlight: number;
  /** Admitted requests waiting beyond those running; more are refused with 503. Default 8. */
  queueDepth: number;
  /** `Retry-After` sent with 503 answers, in seconds. Default 1. */
  retryAfterSeconds: number;
  /** Bound of the engine's cross-request state cache (saved state files, and separately in-memory snapshots of hybrid models), in bytes. Default 512 MiB. */
  cacheMaxBytes: number;
  /** Deadline of one request from arrival to answer, in milliseconds. Default 60000 (SageMaker's invocation timeout). */
  requestTimeoutMs: number;
  /** How long a shutdown waits for in-flight requests before aborting them, in milliseconds. Default 30000. */
  shutdownTimeoutMs: number;
  /** Lowest log level written. Default `info`. */
  logLevel: LogLevel;
}

/** One setting: where it is read from, its default and how it is parsed. */
export interface ServerSetting {
  key: keyof ServerConfig;
  /** Environment variables, first set wins. */
  env: readonly string[];
  /** Command-line flag of `decisions serve`, without the dashes; overrides the environment. */
  flag: string;
  /** The default, as documented. */
  defaultText: string;
  description: string;
}

type Parsed = Partial<Record<keyof ServerConfig, unknown>>;

interface SettingRule extends ServerSetting {
  parse(raw: string): unknown;
}

const MIB = 1024 * 1024;

function integer(min: number, max = Number.MAX_SAFE_INTEGER): (raw: string) => number {
  return (raw) => {
    if (!/^-?\d+$/.test(raw)) throw new Error(`must be an integer, got ${JSON.stringify(raw)}`);
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new Error(
        `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}, got ${raw}`,
      );
    }
    return value;
  };
}

const text = (raw: string): string => raw;

function boolean(raw: string): boolean {
  const value = raw.toLowerCase();
  if (["true", "1", "yes"].includes(value)) return true;
  if (["false", "0", "no"].includes(value)) return false;
  throw new Error(`must be true or false, got ${JSON.stringify(raw)}`);
}

const RULES: readonly SettingRule[] = [
  {
    key: "host",
    env: ["SEMIF_HOST"],
    flag: "host",
    defaultText: "127.0.0.1",
    description: "interface to bind (the images set 0.0.0.0)",
    parse: text,
  },
  {
    key: "port",
    env: ["SAGEMAKER_BIND_TO_PORT", "PORT"],
    flag: "port",
    defaultText: "8080",
    description: "TCP port",
    parse: integer(0, 65535),
  },
  {
    key: "modelPath",
    env: ["SEMIF_MODEL_PATH"],
    flag: "model",
    defaultText: "(discovered)",
    description: "explicit GGUF file",
    parse: text,
  },
  {
    key: "modelDir",
    env: ["SEMIF_MODEL_DIR"],
    flag: "model-dir",
    defaultText: "/opt/ml/model",
    description: "directory holding exactly one .gguf (or one folder below)",
    parse: text,
  },
  {
    key: "requireManifest",
    env: ["SEMIF_REQUIRE_MANIFEST"],
    flag: "require-manifest",
    defaultText: "true",
    description: "refuse a GGUF without model-manifest.json beside it (true/false)",
    parse: boolean,
  },
  {
    key: "threads",
    env: ["SEMIF_THREADS"],
    flag: "threads",
    defaultText: "available parallelism",
    description: "CPU threads of llama.cpp",
    parse: integer(1, 1024),
  },
  {
    key: "gpuLayers",
    env: ["SEMIF_GPU_LAYERS"],
    flag: "gpu-layers",
    defaultText: "0",
    description: "layers offloaded to the GPU: -1 all, 0 none, N",
    parse: integer(-1, 100_000),
  },
  {
    key: "contextSize",
    env: ["SEMIF_CONTEXT_SIZE"],
    flag: "context-size",
    defaultText: "8192",
    description: "context size in tokens",
    parse: integer(64, 1 << 20),
  },
  {
    key: "batchSize",
    env: ["SEMIF_BATCH_SIZE"],
    flag: "batch-size",
    defaultText: "512",
    description: "tokens per decode step",
    parse: integer(1, 1 << 20),
  },
  {
    key: "maxBodyBytes",
    env: ["SEMIF_MAX_BODY_BYTES"],
    flag: "max-body-bytes",
    defaultText: String(4 * MIB),
    description: "largest request body in bytes",
    parse: integer(1, 1 << 30),
  },
  {
    key: "maxOptions",
    env: ["SEMIF_MAX_OPTIONS"],
    flag: "max-options",
    defaultText: "255",
    description: "most options per question (also capped by the model's label alphabet)",
    parse: integer(2, 100_000),
  },
  {
    key: "maxQuestions",
    env: ["SEMIF_MAX_QUESTIONS"],
    flag: "max-questions",
    defaultText: "64",
    description: "most decisions or questions per request",
    parse: integer(1, 100_000),
  },
  {
    key: "maxPromptTokens",
    env: ["SEMIF_MAX_PROMPT_TOKENS"],
    flag: "max-prompt-tokens",
    defaultText: "the context size",
    description: "most tokens of one prompt",
    parse: integer(1),
  },
  {
    key: "maxRequestTokens",
    env: ["SEMIF_MAX_REQUEST_TOKENS"],
    flag: "max-request-tokens",
    defaultText: "32768",
    description: "most tokens one request evaluates",
    parse: integer(1),
  },
  {
    key: "maxCompletionTokens",
    env: ["SEMIF_MAX_COMPLETION_TOKENS"],
    flag: "max-completion-tokens",
    defaultText: "512",
    description: "most tokens a chat completion generates",
    parse: integer(1),
  },
  {
    key: "maxInFlight",
    env: ["SEMIF_MAX_IN_FLIGHT"],
    flag: "max-in-flight",
    defaultText: "1",
    description: "requests running against the engine at once",
    parse: integer(1, 10_000),
  },
  {
    key: "queueDepth",
    env: ["SEMIF_QUEUE_DEPTH"],
    flag: "queue-depth",
    defaultText: "8",
    description: "admitted requests waiting; beyond it 503",
    parse: integer(0, 100_000),
  },
  {
    key: "retryAfterSeconds",
    env: ["SEMIF_RETRY_AFTER_SECONDS"],
    flag: "retry-after-seconds",
    defaultText: "1",
    description: "Retry-After of 503 answers",
    parse: integer(0, 3600),
  },
  {
    key: "cacheMaxBytes",
    env: ["SEMIF_CACHE_MAX_BYTES"],
    flag: "cache-max-bytes",
    defaultText: String(512 * MIB),
    description:
      "bound of the states kept across requests (saved state files; in-memory snapshots of hybrid models)",
    parse: integer(0),
  },
  {
    key: "requestTimeoutMs",
    env: ["SEMIF_REQUEST_TIMEOUT_MS"],
    flag: "request-timeout-ms",
    defaultText: "60000",
    description: "deadline of one request",
    parse: integer(1),
  },
  {
    key: "shutdownTimeoutMs",
    env: ["SEMIF_SHUTDOWN_TIMEOUT_MS"],
    flag: "shutdown-timeout-ms",
    defaultText: "30000",
    description: "grace period for in-flight requests at shutdown",
    parse: integer(0),
  },
  {
    key: "logLevel",
    env: ["SEMIF_LOG_LEVEL"],
    flag: "log-level",
    defaultText: "info",
    description: `lowest log level written (${LOG_LEVELS.join(", ")})`,
    parse: (raw) => {
      const level = raw.toLowerCase();
      if (!(LOG_LEVELS as readonly string[]).includes(level))
        throw new Error(`must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(raw)}`);
      return level;
    },
  },
];

/** Every setting with its environment variables, flag, default and meaning (for docs and `--help`). */
export const SERVER_SETTINGS: readonly ServerSetting[] = RULES.map(
  ({ parse: _parse, ...setting }) => setting,
);

/**
 * Reads and validates the server configuration. A flag overrides the environment; among several
 * variables of one setting the first set wins (`SAGEMAKER_BIND_TO_PORT` before `PORT`). A value that
 * is empty or only whitespace counts as unset. Defaults are applied here and nowhere else.
 *
 * @param env the environment, read once at the entry point (`process.env`).
 * @param flags flag values by flag name without dashes (`{"port": "9000"}`).
 * @param machine facts of the machine used for defaults. Default: this machine's.
 * @throws ConfigError naming every bad variable or flag at once.
 */
export function readServerConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, string | undefined>> = {},
  machine: { availableParallelism: number } = { availableParallelism: availableParallelism() },
): ServerConfig {
  const parsed: Parsed = {};
  const sources: Partial<Record<keyof ServerConfig, string>> = {};
  const problems: string[] = [];
  for (const rule of RULES) {
    const source = sourceOf(rule, env, flags);
    if (source === undefined) continue;
    try {
      parsed[rule.key] = rule.parse(source.raw.trim());
      sources[rule.key] = source.name;
    } catch (error) {
      problems.push(`${source.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const contextSize = (parsed.contextSize as number | undefined) ?? 8192;
  const config: ServerConfig = {
    host: (parsed.host as string | undefined) ?? "127.0.0.1",
    port: (parsed.port as number | undefined) ?? 8080,
    modelPath: parsed.modelPath as string | undefined,
    modelDir: (parsed.modelDir as string | undefined) ?? "/opt/ml/model",
    requireManifest: (parsed.requireManifest as boolean | undefined) ?? true,
    threads: (parsed.threads as number | undefined) ?? Math.max(1, machine.availableParallelism),
    gpuLayers: (parsed.gpuLayers as number | undefined) ?? 0,
    contextSize,
    batchSize: (parsed.batchSize as number | undefined) ?? Math.min(512, contextSize),
    maxBodyBytes: (parsed.maxBodyBytes as number | undefined) ?? 4 * MIB,
    maxOptions: (parsed.maxOptions as number | undefined) ?? 255,
    maxQuestions: (parsed.maxQuestions as number | undefined) ?? 64,
    maxPromptTokens: (parsed.maxPromptTokens as number | undefined) ?? contextSize,
    maxRequestTokens: (parsed.maxRequestTokens as number | undefined) ?? 32768,
    maxCompletionTokens: (parsed.maxCompletionTokens as number | undefined) ?? 512,
    maxInFlight: (parsed.maxInFlight as number | undefined) ?? 1,
    queueDepth: (parsed.queueDepth as number | undefined) ?? 8,
    retryAfterSeconds: (parsed.retryAfterSeconds as number | undefined) ?? 1,
    cacheMaxBytes: (parsed.cacheMaxBytes as number | undefined) ?? 512 * MIB,
    requestTimeoutMs: (parsed.requestTimeoutMs as number | undefined) ?? 60_000,
    shutdownTimeoutMs: (parsed.shutdownTimeoutMs as number | undefined) ?? 30_000,
    logLevel: (parsed.logLevel as LogLevel | undefined) ?? "info",
  };
  if (sources.maxPromptTokens !== undefined && config.maxPromptTokens > config.contextSize) {
    problems.push(
      `${sources.maxPromptTokens}: must be at most the context size (${config.contextSize}), got ${config.maxPromptTokens}`,
    );
  }
  if (sources.batchSize !== undefined && config.batchSize > config.contextSize) {
    problems.push(
      `${sources.batchSize}: must be at most the context size (${config.contextSize}), got ${config.batchSize}`,
    );
  }
  if (config.modelPath !== undefined && config.modelPath === "")
    problems.push(`${sources.modelPath}: must not be empty`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function sourceOf(
  rule: SettingRule,
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, string | undefined>>,
): { name: string; raw: string } | undefined {
  const flag = flags[rule.flag];
  if (flag !== undefined) return { name: `--${rule.flag}`, raw: flag };
  for (const name of rule.env) {
    const raw = env[name];
    if (raw !== undefined && raw.trim() !== "") return { name, raw };
  }
  return undefined;
}
