/**
 * The sub-commands of `decisions`, one module each. The CLI itself never imports this index: the
 * registry loads each module on demand (`help` loads none), and some modules need parts that an
 * installation may not ship (`bench` needs `bench/`). For tests and programs that embed a command.
 */
export { benchCommand } from "./benchCommand.js";
export { buildLlamaCommand, createBuildLlamaCommand } from "./buildLlamaCommand.js";
export { calibrateCommand, createCalibrateCommand } from "./calibrateCommand.js";
export { chaosCommand } from "./chaosCommand.js";
export { classifyUsage } from "./classify/usage.js";
export { classifyCommand, createClassifyCommand } from "./classifyCommand.js";
export { compareCommand, createCompareCommand } from "./compareCommand.js";
export { costCommand, createCostCommand } from "./costCommand.js";
export { createDlqCommand, dlqCommand } from "./dlqCommand.js";
export { createDriftCommand, type DriftCommandIo, driftCommand } from "./driftCommand.js";
export { createJevBenchCommand, jevbenchCommand } from "./jevbenchCommand.js";
export { createJobsCommand, type JobsCommandIo, jobsCommand } from "./jobsCommand.js";
export { createModelsCommand, modelsCommand } from "./modelsCommand.js";
export { createOutcomesCommand, outcomesCommand } from "./outcomesCommand.js";
export {
  createPoliciesCommand,
  type PoliciesReport,
  type PolicySummary,
  policiesCommand,
} from "./policiesCommand.js";
export { createSchemaCommand, schemaCommand } from "./schemaCommand.js";
export {
  parseServeArgs,
  type ServeArgs,
  serveCommand,
  serveUsage,
  serveWithFlags,
  settingFlags,
  settingsUsage,
  settingValues,
} from "./serveCommand.js";
export { createShadowCommand, shadowCommand } from "./shadowCommand.js";
export { createSimulateCommand, simulateCommand } from "./simulateCommand.js";
export { startCommand, startNextStep, startUsage } from "./startCommand.js";
export { createSubmitCommand, submitCommand, submitUsage } from "./submitCommand.js";
