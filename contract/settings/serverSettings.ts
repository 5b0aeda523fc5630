import type { Setting } from "./Setting.js";
import {
  booleanSetting,
  integerSetting,
  nonEmptyTextSetting,
  oneOfSetting,
  textSetting,
} from "./settingSchemas.js";

/**
 * The llama.cpp binaries the engine can run on (`adapter/engine/builds/llamaBuilds.ts` says what each is):
 * node-llama-cpp's `prebuilt` one, or a `native`, `native-amx` or `portable` build of
 * `decisions build-llama`.
 */
export const LLAMA_BUILDS = ["prebuilt", "native", "native-amx", "portable"] as const;

/** The server's log levels, lowest first. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

/** How parallel sequences share decode steps. */
export const PARALLEL_BATCHING_MODES = ["exact", "merged"] as const;

/** One setting of the server: a kit entry and its `decisions serve` flag. */
export interface ServerSettingEntry<T> extends Setting<T> {
  /** Command-line flag of `decisions serve`, without the dashes; overrides the environment. */
  readonly flag: string;
}

const MIB = 1024 * 1024;

/**
 * The server's settings (`adapter/server/config.ts` reads them, applying the computed defaults and
 * the checks between settings), in the order they are documented. The CDK app writes some of them
 * (`SEMIF_CONTEXT_SIZE`, `SEMIF_GPU_LAYERS`, `SEMIF_THREADS`, …) into the endpoint's containers.
 */
export const SERVER_SETTING_ENTRIES = {
  host: {
    env: ["SEMIF_HOST"],
    flag: "host",
    doc: "interface to bind (the images set `0.0.0.0`)",
    schema: textSetting,
    default: { value: "127.0.0.1" },
  },
  port: {
    env: ["SAGEMAKER_BIND_TO_PORT", "PORT"],
    flag: "port",
    doc: "TCP port (0: a free one)",
    schema: integerSetting(0, 65535),
    default: { value: 8080 },
  },
  modelPath: {
    env: ["SEMIF_MODEL_PATH"],
    flag: "model",
    doc: "explicit GGUF file",
    schema: nonEmptyTextSetting,
    default: { text: "discovered under the model folder" },
  },
  modelDir: {
    env: ["SEMIF_MODEL_DIR"],
    flag: "model-dir",
    doc: "folder holding exactly one `.gguf` (or one folder below), as SageMaker unpacks the model",
    schema: textSetting,
    default: { value: "/opt/ml/model" },
  },
  requireManifest: {
    env: ["SEMIF_REQUIRE_MANIFEST"],
    flag: "require-manifest",
    doc: "refuse a GGUF without `model-manifest.json` beside it (`true` or `false`)",
    schema: booleanSetting,
    default: { value: true },
  },
  threads: {
    env: ["SEMIF_THREADS"],
    flag: "threads",
    doc: "CPU threads of llama.cpp",
    schema: integerSetting(1, 1024),
    default: { text: "the cores this process may use" },
  },
  gpuLayers: {
    env: ["SEMIF_GPU_LAYERS"],
    flag: "gpu-layers",
    doc: "layers on the GPU: `-1` all, `0` none, N; any value but 0 refuses to start without a GPU backend",
    schema: integerSetting(-1, 100_000),
    default: { value: 0 },
  },
  contextSize: {
    env: ["SEMIF_CONTEXT_SIZE"],
    flag: "context-size",
    doc: "context size in tokens: the longest prompt",
    schema: integerSetting(64, 1 << 20),
    default: { value: 8192 },
  },
  batchSize: {
    env: ["SEMIF_BATCH_SIZE"],
    flag: "batch-size",
    doc: "tokens per decode step (at most the context size)",
    schema: integerSetting(1, 1 << 20),
    default: { text: "512, or the context size if smaller" },
  },
  parallelSequences: {
    env: ["SEMIF_PARALLEL_SEQUENCES"],
    flag: "parallel-sequences",
    doc: "sequences in the model context, so that many admitted requests are evaluated at once (for accelerators; each holds the full context size)",
    schema: integerSetting(1, 64),
    default: { value: 1 },
  },
  llamaBuild: {
    env: ["SEMIF_LLAMA_BUILD"],
    flag: "llama-build",
    doc: "the llama.cpp binary: `prebuilt` (node-llama-cpp's, no OpenMP), or `native` / `native-amx` / `portable` made from the bundled source by `decisions build-llama` (OpenMP; `native`: -march=native without AMX, `native-amx`: with ggml's AMX kernels); a source build that is missing stops the start",
    schema: oneOfSetting(LLAMA_BUILDS),
    default: { value: "prebuilt" },
  },
  parallelBatching: {
    env: ["SEMIF_PARALLEL_BATCHING"],
    flag: "parallel-batching",
    doc: "how parallel sequences share decode steps: `exact` merges only equal-length chunks (answers bitwise those of a serial run), `merged` merges all (more throughput, answers may differ in the last digits)",
    schema: oneOfSetting(PARALLEL_BATCHING_MODES),
    default: { value: "exact" },
  },
  maxBodyBytes: {
    env: ["SEMIF_MAX_BODY_BYTES"],
    flag: "max-body-bytes",
    doc: "largest request body in bytes (413 beyond)",
    schema: integerSetting(1, 1 << 30),
    default: { value: 4 * MIB },
  },
  maxOptions: {
    env: ["SEMIF_MAX_OPTIONS"],
    flag: "max-options",
    doc: "most options per question (also capped by the model's label alphabet)",
    schema: integerSetting(2, 100_000),
    default: { value: 255 },
  },
  maxQuestions: {
    env: ["SEMIF_MAX_QUESTIONS"],
    flag: "max-questions",
    doc: "most decisions or questions per request",
    schema: integerSetting(1, 100_000),
    default: { value: 64 },
  },
  maxPromptTokens: {
    env: ["SEMIF_MAX_PROMPT_TOKENS"],
    flag: "max-prompt-tokens",
    doc: "most tokens of one prompt, at most the context size (the longest JevBench state, 15k characters, is ~4,000)",
    schema: integerSetting(1),
    default: { text: "the context size" },
  },
  maxRequestTokens: {
    env: ["SEMIF_MAX_REQUEST_TOKENS"],
    flag: "max-request-tokens",
    doc: "most tokens one request evaluates (shared state once plus each question)",
    schema: integerSetting(1),
    default: { value: 32768 },
  },
  maxCompletionTokens: {
    env: ["SEMIF_MAX_COMPLETION_TOKENS"],
    flag: "max-completion-tokens",
    doc: "most tokens a chat completion generates",
    schema: integerSetting(1),
    default: { value: 512 },
  },
  maxInFlight: {
    env: ["SEMIF_MAX_IN_FLIGHT"],
    flag: "max-in-flight",
    doc: "requests running against the engine at once",
    schema: integerSetting(1, 10_000),
    default: { text: "the parallel sequences" },
  },
  queueDepth: {
    env: ["SEMIF_QUEUE_DEPTH"],
    flag: "queue-depth",
    doc: "admitted requests waiting; beyond it 503 with `Retry-After`, decided before the body is read",
    schema: integerSetting(0, 100_000),
    default: { value: 8 },
  },
  interactiveReserve: {
    env: ["SEMIF_INTERACTIVE_RESERVE"],
    flag: "interactive-reserve",
    doc: "waiting places only `interactive` calls may take (the lane named in `X-Amzn-SageMaker-Custom-Attributes: lane=…`); `bulk` calls are refused once the others are full, and waiting interactive calls start before waiting bulk calls. At most the queue depth",
    schema: integerSetting(0, 100_000),
    default: { text: "2, or the queue depth if smaller" },
  },
  retryAfterSeconds: {
    env: ["SEMIF_RETRY_AFTER_SECONDS"],
    flag: "retry-after-seconds",
    doc: "`Retry-After` of 503 answers, in seconds",
    schema: integerSetting(0, 3600),
    default: { value: 1 },
  },
  cacheMaxBytes: {
    env: ["SEMIF_CACHE_MAX_BYTES"],
    flag: "cache-max-bytes",
    doc: "bound of the states kept across requests: saved state files on disk (0 keeps none), and separately the in-memory snapshots of hybrid models",
    schema: integerSetting(0),
    // The rule itself is `defaultCacheBytes` in adapter/engine/cache/defaultCacheBytes.ts: change both together.
    default: {
      text: "sized from the machine at load: min(8 GiB, 1/2 of the free disk where state files go, 1/4 of available memory), at least min(64 MiB, 1/2 of either); logged as cache_bound",
    },
  },
  requestTimeoutMs: {
    env: ["SEMIF_REQUEST_TIMEOUT_MS"],
    flag: "request-timeout-ms",
    doc: "deadline of one request in milliseconds (504 beyond; SageMaker's invocation timeout)",
    schema: integerSetting(1),
    default: { value: 60_000 },
  },
  bodyTimeoutSeconds: {
    env: ["SEMIF_BODY_TIMEOUT_SECONDS"],
    flag: "body-timeout-seconds",
    doc: "deadline for reading one request's body, in seconds (408 beyond), apart from the request's: a slow or idle sender cannot hold the server",
    schema: integerSetting(1, 3600),
    default: { value: 10 },
  },
  maxBodyReads: {
    env: ["SEMIF_MAX_BODY_READS"],
    flag: "max-body-reads",
    doc: "bodies of max-body-bytes held at once: bodies being read (and prepared) hold at most this × max-body-bytes bytes together, each charged the bytes it has received (a stalled sender holds what it sent, not a slot); beyond it 503 with `Retry-After`, before anything is read when `Content-Length` says so",
    schema: integerSetting(1, 100_000),
    default: { value: 32 },
  },
  maxStateBytesPerToken: {
    env: ["SEMIF_MAX_STATE_BYTES_PER_TOKEN"],
    flag: "max-state-bytes-per-token",
    doc: "a state longer than max-prompt-tokens × this many UTF-8 bytes is refused (400) before it is rendered or tokenized (ordinary text and JSON tokenize at under 8 bytes a token)",
    schema: integerSetting(1, 1024),
    default: { value: 16 },
  },
  hideCacheDetails: {
    env: ["SEMIF_HIDE_CACHE_DETAILS"],
    flag: "hide-cache-details",
    doc: "leave `cached_tokens` out of answers: it tells a caller whether another caller sent the same state recently (see docs/security.md)",
    schema: booleanSetting,
    default: { value: false },
  },
  shutdownTimeoutMs: {
    env: ["SEMIF_SHUTDOWN_TIMEOUT_MS"],
    flag: "shutdown-timeout-ms",
    doc: "grace period for in-flight requests on SIGTERM, in milliseconds",
    schema: integerSetting(0),
    default: { value: 30_000 },
  },
  logLevel: {
    env: ["SEMIF_LOG_LEVEL"],
    flag: "log-level",
    doc: `lowest log level written (${LOG_LEVELS.map((level) => `\`${level}\``).join(", ")}); logs are JSON lines on stdout`,
    schema: oneOfSetting(LOG_LEVELS),
    default: { value: "info" },
  },
} as const satisfies Record<string, ServerSettingEntry<unknown>>;
