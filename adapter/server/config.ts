import { availableParallelism } from "node:os";
import { DEFAULT_CACHE_RULE } from "../engine/defaultCacheBytes.js";
import { LLAMA_BUILDS, type LlamaBuild } from "../engine/llamaBuilds.js";
import { ConfigError } from "./errors.js";
import { LOG_LEVELS, type LogLevel } from "./logger.js";

/**
 * Everything the server is configured with. Read once at the entry point by
 * {@link readServerConfig}; code below it receives this object and never reads `process.env`.
 * Each field's default and meaning are in {@link SERVER_SETTINGS} (the one table of settings,
 * which also writes `decisions serve --help` and README's configuration table).
 */
export interface ServerConfig {
  /** Interface to bind. */
  host: string;
  /** TCP port. */
  port: number;
  /** Explicit GGUF path; when absent the model is discovered under {@link ServerConfig.modelDir}. */
  modelPath: string | undefined;
  /** Where SageMaker unpacks the model: exactly one `.gguf` here or one folder below. */
  modelDir: string;
  /** Refuse to serve a GGUF without a `model-manifest.json` beside it. */
  requireManifest: boolean;
  /** CPU threads for llama.cpp. */
  threads: number;
  /** Layers offloaded to the GPU: -1 all, 0 none (CPU), N that many. */
  gpuLayers: number;
  /** Context size in tokens: no prompt may be longer. */
  contextSize: number;
  /** Tokens evaluated per decode step. */
  batchSize: number;
  /** The llama.cpp binary: node-llama-cpp's `prebuilt` one, or a `native` / `portable` build of `decisions build-llama`. */
  llamaBuild: LlamaBuild;
  /** Sequences of the one model context: requests evaluated at once (each with the full context size). */
  parallelSequences: number;
  /** How parallel sequences share decode steps: `exact` (answers bitwise those of a serial run) or `merged`. */
  parallelBatching: "exact" | "merged";
  /** Largest request body in bytes. */
  maxBodyBytes: number;
  /** Most options per question; further capped by the model's label alphabet. */
  maxOptions: number;
  /** Most decisions of a `decisions` request, or questions of a System One request. */
  maxQuestions: number;
  /** Most tokens of one prompt; at most the context size. */
  maxPromptTokens: number;
  /** Most tokens one request evaluates (shared prefix once plus each question's suffix). */
  maxRequestTokens: number;
  /** Most tokens a chat completion may generate. */
  maxCompletionTokens: number;
  /** Requests running against the engine at once. */
  maxInFlight: number;
  /** Admitted requests waiting beyond those running; more are refused with 503. */
  queueDepth: number;
  /** `Retry-After` sent with 503 answers, in seconds. */
  retryAfterSeconds: number;
  /**
   * Bound of the engine's cross-request state cache, in bytes; undefined when not set, and then
   * the engine sizes it from the machine when it loads ({@link DEFAULT_CACHE_RULE}), where the state
   * files go and after the model took its memory, and logs the value it chose (`cache_bound`).
   */
  cacheMaxBytes: number | undefined;
  /** Deadline of one request from arrival to answer, in milliseconds. */
  requestTimeoutMs: number;
  /** How long a shutdown waits for in-flight requests before aborting them, in milliseconds. */
  shutdownTimeoutMs: number;
  /** Lowest log level written. */
  logLevel: LogLevel;
}

/** One setting as documented: where it is read from, its default and what it does. */
export interface ServerSetting {
  /** The {@link ServerConfig} field it sets. */
  key: keyof ServerConfig;
  /** Environment variables, first set wins. */
  env: readonly string[];
  /** Command-line flag of `decisions serve`, without the dashes; overrides the environment. */
  flag: string;
  /** The default as documented: the value itself, or how it is computed. */
  defaultText: string;
  /** True when {@link ServerSetting.defaultText} is the default value itself (shown as code), false when it describes a computed default. */
  literalDefault: boolean;
  /** What the setting does, one line (backticks mark code; README shows them as such). */
  description: string;
}

/** Facts of the machine that computed defaults use. */
export interface MachineFacts {
  /** `os.availableParallelism()`: the cores this process may use. */
  availableParallelism: number;
}

/** Looks up another setting's resolved value (a computed default may depend on one). */
type Lookup = <K extends keyof ServerConfig>(key: K) => ServerConfig[K];

/** How one setting is read, defaulted and checked: a row of the table. */
interface SettingSpec<K extends keyof ServerConfig> {
  env: readonly string[];
  flag: string;
  description: string;
  /** Turns the raw text (trimmed) into the value; throws an Error whose message says what is wrong. */
  parse(raw: string): ServerConfig[K];
  /** A fixed default (documented as the value), or one computed from the machine and other settings. */
  default:
    | { value: ServerConfig[K] }
    | { text: string; compute(lookup: Lookup, machine: MachineFacts): ServerConfig[K] };
  /** A check of an explicitly set value against the other settings; returns what is wrong, if anything. */
  check?(value: ServerConfig[K], lookup: Lookup): string | undefined;
}

type SettingsTable = { readonly [K in keyof ServerConfig]: SettingSpec<K> };

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

function nonEmptyText(raw: string): string {
  if (raw === "") throw new Error("must not be empty");
  return raw;
}

function boolean(raw: string): boolean {
  const value = raw.toLowerCase();
  if (["true", "1", "yes"].includes(value)) return true;
  if (["false", "0", "no"].includes(value)) return false;
  throw new Error(`must be true or false, got ${JSON.stringify(raw)}`);
}

function oneOf<const T extends string>(values: readonly T[]): (raw: string) => T {
  return (raw) => {
    const value = values.find((candidate) => candidate === raw.toLowerCase());
    if (value === undefined)
      throw new Error(`must be one of ${values.join(", ")}, got ${JSON.stringify(raw)}`);
    return value;
  };
}

function logLevel(raw: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  if (level === undefined)
    throw new Error(`must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(raw)}`);
  return level;
}

function atMostContextSize(value: number, lookup: Lookup): string | undefined {
  const contextSize = lookup("contextSize");
  return value > contextSize ? `must be at most the context size (${contextSize}), got ${value}` : undefined;
}

/**
 * The one table of settings, in the order they are documented. Every default is applied from here
 * and nowhere else; `decisions serve --help` and README's "Configuration" table are written from it.
 */
const SETTINGS: SettingsTable = {
  host: {
    env: ["SEMIF_HOST"],
    flag: "host",
    description: "interface to bind (the images set `0.0.0.0`)",
    parse: text,
    default: { value: "127.0.0.1" },
  },
  port: {
    env: ["SAGEMAKER_BIND_TO_PORT", "PORT"],
    flag: "port",
    description: "TCP port (0: a free one)",
    parse: integer(0, 65535),
    default: { value: 8080 },
  },
  modelPath: {
    env: ["SEMIF_MODEL_PATH"],
    flag: "model",
    description: "explicit GGUF file",
    parse: nonEmptyText,
    default: { text: "discovered under the model folder", compute: () => undefined },
  },
  modelDir: {
    env: ["SEMIF_MODEL_DIR"],
    flag: "model-dir",
    description: "folder holding exactly one `.gguf` (or one folder below), as SageMaker unpacks the model",
    parse: text,
    default: { value: "/opt/ml/model" },
  },
  requireManifest: {
    env: ["SEMIF_REQUIRE_MANIFEST"],
    flag: "require-manifest",
    description: "refuse a GGUF without `model-manifest.json` beside it (`true` or `false`)",
    parse: boolean,
    default: { value: true },
  },
  threads: {
    env: ["SEMIF_THREADS"],
    flag: "threads",
    description: "CPU threads of llama.cpp",
    parse: integer(1, 1024),
    default: {
      text: "the cores this process may use",
      compute: (_lookup, machine) => Math.max(1, machine.availableParallelism),
    },
  },
  gpuLayers: {
    env: ["SEMIF_GPU_LAYERS"],
    flag: "gpu-layers",
    description:
      "layers on the GPU: `-1` all, `0` none, N; any value but 0 refuses to start without a GPU backend",
    parse: integer(-1, 100_000),
    default: { value: 0 },
  },
  contextSize: {
    env: ["SEMIF_CONTEXT_SIZE"],
    flag: "context-size",
    description: "context size in tokens: the longest prompt",
    parse: integer(64, 1 << 20),
    default: { value: 8192 },
  },
  batchSize: {
    env: ["SEMIF_BATCH_SIZE"],
    flag: "batch-size",
    description: "tokens per decode step (at most the context size)",
    parse: integer(1, 1 << 20),
    default: {
      text: "512, or the context size if smaller",
      compute: (lookup) => Math.min(512, lookup("contextSize")),
    },
    check: atMostContextSize,
  },
  parallelSequences: {
    env: ["SEMIF_PARALLEL_SEQUENCES"],
    flag: "parallel-sequences",
    description:
      "sequences in the model context, so that many admitted requests are evaluated at once (for accelerators; each holds the full context size)",
    parse: integer(1, 64),
    default: { value: 1 },
  },
  llamaBuild: {
    env: ["SEMIF_LLAMA_BUILD"],
    flag: "llama-build",
    description:
      "the llama.cpp binary: `prebuilt` (node-llama-cpp's, no OpenMP), or `native` / `portable` made from the bundled source by `decisions build-llama` (OpenMP; `native` also with -march=native); a source build that is missing stops the start",
    parse: oneOf(LLAMA_BUILDS),
    default: { value: "prebuilt" },
  },
  parallelBatching: {
    env: ["SEMIF_PARALLEL_BATCHING"],
    flag: "parallel-batching",
    description:
      "how parallel sequences share decode steps: `exact` merges only equal-length chunks (answers bitwise those of a serial run), `merged` merges all (more throughput, answers may differ in the last digits)",
    parse: oneOf(["exact", "merged"] as const),
    default: { value: "exact" },
  },
  maxBodyBytes: {
    env: ["SEMIF_MAX_BODY_BYTES"],
    flag: "max-body-bytes",
    description: "largest request body in bytes (413 beyond)",
    parse: integer(1, 1 << 30),
    default: { value: 4 * MIB },
  },
  maxOptions: {
    env: ["SEMIF_MAX_OPTIONS"],
    flag: "max-options",
    description: "most options per question (also capped by the model's label alphabet)",
    parse: integer(2, 100_000),
    default: { value: 255 },
  },
  maxQuestions: {
    env: ["SEMIF_MAX_QUESTIONS"],
    flag: "max-questions",
    description: "most decisions or questions per request",
    parse: integer(1, 100_000),
    default: { value: 64 },
  },
  maxPromptTokens: {
    env: ["SEMIF_MAX_PROMPT_TOKENS"],
    flag: "max-prompt-tokens",
    description:
      "most tokens of one prompt, at most the context size (the longest JevBench state, 15k characters, is ~4,000)",
    parse: integer(1),
    default: { text: "the context size", compute: (lookup) => lookup("contextSize") },
    check: atMostContextSize,
  },
  maxRequestTokens: {
    env: ["SEMIF_MAX_REQUEST_TOKENS"],
    flag: "max-request-tokens",
    description: "most tokens one request evaluates (shared state once plus each question)",
    parse: integer(1),
    default: { value: 32768 },
  },
  maxCompletionTokens: {
    env: ["SEMIF_MAX_COMPLETION_TOKENS"],
    flag: "max-completion-tokens",
    description: "most tokens a chat completion generates",
    parse: integer(1),
    default: { value: 512 },
  },
  maxInFlight: {
    env: ["SEMIF_MAX_IN_FLIGHT"],
    flag: "max-in-flight",
    description: "requests running against the engine at once",
    parse: integer(1, 10_000),
    default: { text: "the parallel sequences", compute: (lookup) => lookup("parallelSequences") },
  },
  queueDepth: {
    env: ["SEMIF_QUEUE_DEPTH"],
    flag: "queue-depth",
    description:
      "admitted requests waiting; beyond it 503 with `Retry-After`, decided before the body is read",
    parse: integer(0, 100_000),
    default: { value: 8 },
  },
  retryAfterSeconds: {
    env: ["SEMIF_RETRY_AFTER_SECONDS"],
    flag: "retry-after-seconds",
    description: "`Retry-After` of 503 answers, in seconds",
    parse: integer(0, 3600),
    default: { value: 1 },
  },
  cacheMaxBytes: {
    env: ["SEMIF_CACHE_MAX_BYTES"],
    flag: "cache-max-bytes",
    description:
      "bound of the states kept across requests: saved state files on disk (0 keeps none), and separately the in-memory snapshots of hybrid models",
    parse: integer(0),
    // Left to the engine, which measures the room where the state files go once the model is loaded.
    default: { text: DEFAULT_CACHE_RULE, compute: () => undefined },
  },
  requestTimeoutMs: {
    env: ["SEMIF_REQUEST_TIMEOUT_MS"],
    flag: "request-timeout-ms",
    description: "deadline of one request in milliseconds (504 beyond; SageMaker's invocation timeout)",
    parse: integer(1),
    default: { value: 60_000 },
  },
  shutdownTimeoutMs: {
    env: ["SEMIF_SHUTDOWN_TIMEOUT_MS"],
    flag: "shutdown-timeout-ms",
    description: "grace period for in-flight requests on SIGTERM, in milliseconds",
    parse: integer(0),
    default: { value: 30_000 },
  },
  logLevel: {
    env: ["SEMIF_LOG_LEVEL"],
    flag: "log-level",
    description: `lowest log level written (${LOG_LEVELS.map((level) => `\`${level}\``).join(", ")}); logs are JSON lines on stdout`,
    parse: logLevel,
    default: { value: "info" },
  },
};

const KEYS = Object.keys(SETTINGS) as (keyof ServerConfig)[];

/** Every setting with its environment variables, flag, default and meaning, in documented order. */
export const SERVER_SETTINGS: readonly ServerSetting[] = KEYS.map((key) => {
  const { env, flag, description, default: fallback } = SETTINGS[key] as SettingSpec<typeof key>;
  const literalDefault = "value" in fallback;
  const defaultText = literalDefault ? String(fallback.value) : fallback.text;
  return { key, env, flag, defaultText, literalDefault, description };
});

/**
 * Reads and validates the server configuration. A flag overrides the environment; among several
 * variables of one setting the first set wins (`SAGEMAKER_BIND_TO_PORT` before `PORT`). A value that
 * is empty or only whitespace counts as unset. Defaults are applied here, from the settings table,
 * and nowhere else.
 *
 * @param env the environment, read once at the entry point (`process.env`).
 * @param flags flag values by flag name without dashes (`{"port": "9000"}`).
 * @param machine facts of the machine used for defaults. Default: this machine's.
 * @throws ConfigError naming every bad variable or flag at once.
 * @example
 * const config = readServerConfig(process.env, { port: "9000" });
 */
export function readServerConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, string | undefined>> = {},
  machine: MachineFacts = { availableParallelism: availableParallelism() },
): ServerConfig {
  const problems: string[] = [];
  const explicit = new Map<keyof ServerConfig, { name: string; value: unknown }>();
  for (const key of KEYS) {
    const spec = SETTINGS[key];
    const source = sourceOf(spec, env, flags);
    if (source === undefined) continue;
    try {
      explicit.set(key, { name: source.name, value: spec.parse(source.raw.trim()) });
    } catch (error) {
      problems.push(`${source.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const resolved = new Map<keyof ServerConfig, unknown>();
  // A computed default may look up another setting; lookups resolve on demand, so the table's order
  // does not matter. A setting whose own value was invalid gets its default here, only so that the
  // checks of the others can run; the ConfigError below is thrown either way.
  const lookup: Lookup = <K extends keyof ServerConfig>(key: K): ServerConfig[K] => {
    if (!resolved.has(key)) {
      const fallback = SETTINGS[key].default;
      const value = explicit.has(key)
        ? explicit.get(key)?.value
        : "value" in fallback
          ? fallback.value
          : fallback.compute(lookup, machine);
      resolved.set(key, value);
    }
    return resolved.get(key) as ServerConfig[K];
  };
  const config = Object.fromEntries(KEYS.map((key) => [key, lookup(key)])) as unknown as ServerConfig;
  for (const [key, { name }] of explicit) {
    const spec = SETTINGS[key] as SettingSpec<typeof key>;
    const problem = spec.check?.(config[key], lookup);
    if (problem !== undefined) problems.push(`${name}: ${problem}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function sourceOf(
  spec: { env: readonly string[]; flag: string },
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, string | undefined>>,
): { name: string; raw: string } | undefined {
  const flag = flags[spec.flag];
  if (flag !== undefined) return { name: `--${spec.flag}`, raw: flag };
  for (const name of spec.env) {
    const raw = env[name];
    if (raw !== undefined && raw.trim() !== "") return { name, raw };
  }
  return undefined;
}
