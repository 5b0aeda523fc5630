import type { Setting } from "./Setting.js";
import { integerSetting, nonEmptyTextSetting } from "./settingSchemas.js";

/**
 * The results writer's environment (`functions/results/readResultsWriterConfig.ts` reads it at
 * cold start; the CDK app's `JobResultsFunction` writes it). It writes where the job's object
 * came from: `s3://<ingest bucket>/results/<job_id>/`.
 */
export const RESULTS_WRITER_SETTINGS = {
  jobsTable: {
    env: ["JOBS_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the jobs table whose ended jobs get their results, manifest and final status",
  },
  maxAttempts: {
    env: ["MAX_ATTEMPTS"],
    schema: integerSetting(1, 20),
    default: { value: 6 },
    doc: "attempts per DynamoDB call of the jobs table, the first included",
  },
} as const satisfies Record<string, Setting<unknown>>;
