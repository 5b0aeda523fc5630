import type { Setting } from "./Setting.js";
import { integerSetting, nonEmptyTextSetting, textSetting } from "./settingSchemas.js";

/**
 * The ingest function's environment (`functions/ingest/readIngestConfig.ts` reads it at cold
 * start; the CDK app's `IngestFunction` writes it, `maxLinesPerInvocation` from the knob
 * `ingestMaxLinesPerInvocation`).
 */
export const INGEST_SETTINGS = {
  workQueueUrl: {
    env: ["WORK_QUEUE_URL"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the queue the decide function reads",
  },
  outcomesTable: {
    env: ["OUTCOMES_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "where bad lines are recorded as `rejected`",
  },
  policyDir: {
    env: ["POLICY_DIR"],
    schema: textSetting,
    default: { text: "the policies bundled beside the handler" },
    doc: "the policies lines are checked against",
  },
  maxLinesPerInvocation: {
    env: ["MAX_LINES_PER_INVOCATION"],
    schema: integerSetting(1, 10_000_000),
    default: { value: 50_000 },
    doc: "lines read before the function stops at a checkpoint and continues",
  },
  deadlineMarginMs: {
    env: ["DEADLINE_MARGIN_MS"],
    schema: integerSetting(0, 900_000),
    default: { value: 10_000 },
    doc: "stop reading this long before the function's timeout, in milliseconds",
  },
  maxAttempts: {
    env: ["MAX_ATTEMPTS"],
    schema: integerSetting(1, 20),
    default: { value: 6 },
    doc: "attempts per SendMessageBatch or outcome write, the first included",
  },
  jobsTable: {
    env: ["JOBS_TABLE"],
    schema: textSetting,
    default: { value: "" },
    doc: "the jobs table: each object version read is a job there (empty: no jobs)",
  },
} as const satisfies Record<string, Setting<unknown>>;
