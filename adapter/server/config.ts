import { availableParallelism } from "node:os";
import {
  defaultTextOf,
  type PARALLEL_BATCHING_MODES,
  parseSetting,
  SERVER_SETTING_ENTRIES,
  type ServerSettingEntry,
} from "../../contract/index.js";
import type { LlamaBuild } from "../engine/builds/llamaBuilds.js";
import type { DEFAULT_CACHE_RULE } from "../engine/cache/defaultCacheBytes.js";
import { ServerConfigError } from "./errors.js";
import type { LogLevel } from "./logger.js";

/**
 * Everything the server is configured with. Read once at the entry point by
 * {@link readServerConfig}; code below it receives this object and never reads `process.env`.
 * Each field's default and meaning are in {@link SERVER_SETTINGS} (the one table of settings,
 * which also writes `decisions serve --help` and docs/configuration.md).
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
  parallelBatching: (typeof PARALLEL_BATCHING_MODES)[number];
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
  /** Waiting places only `interactive` calls may take (at most `queueDepth`). */
  interactiveReserve: number;
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
  /** Deadline for reading one request's body, in seconds: a slow or idle sender gets 408 past it. */
  bodyTimeoutSeconds: number;
  /** Requests whose bodies may be read at once; more get 503 before anything is read. */
  maxBodyReads: number;
  /** A state longer than `maxPromptTokens` × this many UTF-8 bytes is refused before it is tokenized. */
  maxStateBytesPerToken: number;
  /** Whether answers leave out `cached_tokens`, which tells a caller whether a state was cached. */
  hideCacheDetails: boolean;
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
  /** What the setting does, one line (backticks mark code; docs/configuration.md shows them as such). */
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
interface SettingSpec<T> {
  env: readonly string[];
  flag: string;
  description: string;
  /** Turns the raw text (trimmed) into the value; throws an Error whose message says what is wrong. */
  parse(raw: string): T;
  /** A fixed default (documented as the value), or one computed from the machine and other settings. */
  default: { value: T } | { text: string; compute(lookup: Lookup, machine: MachineFacts): T };
  /** A check of an explicitly set value against the other settings; returns what is wrong, if anything. */
  check?(value: T, lookup: Lookup): string | undefined;
}

type SettingsTable = { readonly [K in keyof ServerConfig]: SettingSpec<ServerConfig[K]> };

/** What the server adds to a kit entry: how a computed default is computed, and a check against other settings. */
interface ServerRule<T> {
  compute?(lookup: Lookup, machine: MachineFacts): T;
  check?(value: T, lookup: Lookup): string | undefined;
}

/** A row of the table from its kit entry (`contract/settings/serverSettings.ts`) and the server's rule. */
function fromEntry<T>(entry: ServerSettingEntry<T>, rule: ServerRule<T> = {}): SettingSpec<T> {
  const fallback = entry.default;
  return {
    env: entry.env,
    flag: entry.flag,
    description: entry.doc,
    parse: (raw) => parseSetting(entry, raw),
    default:
      "value" in fallback
        ? { value: fallback.value }
        : { text: defaultTextOf(entry), compute: rule.compute ?? (() => undefined as T) },
    ...(rule.check === undefined ? {} : { check: rule.check }),
  };
}

function atMostContextSize(value: number, lookup: Lookup): string | undefined {
  const contextSize = lookup("contextSize");
  return value > contextSize ? `must be at most the context size (${contextSize}), got ${value}` : undefined;
}

function atMostQueueDepth(value: number, lookup: Lookup): string | undefined {
  const queueDepth = lookup("queueDepth");
  return value > queueDepth ? `must be at most the queue depth (${queueDepth}), got ${value}` : undefined;
}

/** Waiting places kept for interactive calls when the queue is deep enough. */
export const DEFAULT_INTERACTIVE_RESERVE = 2;

const E = SERVER_SETTING_ENTRIES;

/**
 * The one table of settings, in the order they are documented: the kit's entries (variables,
 * parser, default, doc) with the server's computed defaults and checks. Every default is applied
 * from here and nowhere else; `decisions serve --help` and docs/configuration.md are written from it.
 */
const SETTINGS: SettingsTable = {
  host: fromEntry(E.host),
  port: fromEntry(E.port),
  modelPath: fromEntry<string | undefined>(E.modelPath, { compute: () => undefined }),
  modelDir: fromEntry(E.modelDir),
  requireManifest: fromEntry(E.requireManifest),
  threads: fromEntry(E.threads, {
    compute: (_lookup, machine) => Math.max(1, machine.availableParallelism),
  }),
  gpuLayers: fromEntry(E.gpuLayers),
  contextSize: fromEntry(E.contextSize),
  batchSize: fromEntry(E.batchSize, {
    compute: (lookup) => Math.min(512, lookup("contextSize")),
    check: atMostContextSize,
  }),
  parallelSequences: fromEntry(E.parallelSequences),
  llamaBuild: fromEntry(E.llamaBuild),
  parallelBatching: fromEntry(E.parallelBatching),
  maxBodyBytes: fromEntry(E.maxBodyBytes),
  maxOptions: fromEntry(E.maxOptions),
  maxQuestions: fromEntry(E.maxQuestions),
  maxPromptTokens: fromEntry(E.maxPromptTokens, {
    compute: (lookup) => lookup("contextSize"),
    check: atMostContextSize,
  }),
  maxRequestTokens: fromEntry(E.maxRequestTokens),
  maxCompletionTokens: fromEntry(E.maxCompletionTokens),
  maxInFlight: fromEntry(E.maxInFlight, { compute: (lookup) => lookup("parallelSequences") }),
  queueDepth: fromEntry(E.queueDepth),
  interactiveReserve: fromEntry(E.interactiveReserve, {
    compute: (lookup) => Math.min(DEFAULT_INTERACTIVE_RESERVE, lookup("queueDepth")),
    check: atMostQueueDepth,
  }),
  retryAfterSeconds: fromEntry(E.retryAfterSeconds),
  // Left to the engine, which measures the room where the state files go once the model is loaded.
  cacheMaxBytes: fromEntry<number | undefined>(E.cacheMaxBytes, { compute: () => undefined }),
  requestTimeoutMs: fromEntry(E.requestTimeoutMs),
  bodyTimeoutSeconds: fromEntry(E.bodyTimeoutSeconds),
  maxBodyReads: fromEntry(E.maxBodyReads),
  maxStateBytesPerToken: fromEntry(E.maxStateBytesPerToken),
  hideCacheDetails: fromEntry(E.hideCacheDetails),
  shutdownTimeoutMs: fromEntry(E.shutdownTimeoutMs),
  logLevel: fromEntry(E.logLevel),
};

const KEYS = Object.keys(SETTINGS) as (keyof ServerConfig)[];

/** Every setting with its environment variables, flag, default and meaning, in documented order. */
export const SERVER_SETTINGS: readonly ServerSetting[] = KEYS.map((key) => {
  const {
    env,
    flag,
    description,
    default: fallback,
  } = SETTINGS[key] as SettingSpec<ServerConfig[typeof key]>;
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
 * @throws ServerConfigError naming every bad variable or flag at once.
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
  // checks of the others can run; the ServerConfigError below is thrown either way.
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
    const spec = SETTINGS[key] as SettingSpec<ServerConfig[typeof key]>;
    const problem = spec.check?.(config[key], lookup);
    if (problem !== undefined) problems.push(`${name}: ${problem}`);
  }
  if (problems.length > 0) throw new ServerConfigError(problems);
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
