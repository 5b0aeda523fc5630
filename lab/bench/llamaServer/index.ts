// The adapter against llama-server built from the same llama.cpp source (`decisions bench --llama-server`).
export {
  ensureLlamaServer,
  type LlamaServerBinary,
  LlamaServerUnavailableError,
} from "./buildLlamaServer.js";
export { formatLlamaServerReport } from "./formatLlamaServerReport.js";
export {
  type LlamaServerBenchOptions,
  type LlamaServerReport,
  type LlamaServerRow,
  runLlamaServerBench,
  SCENARIOS,
} from "./runLlamaServerBench.js";
export { type RunningLlamaServer, startLlamaServer } from "./startLlamaServer.js";
