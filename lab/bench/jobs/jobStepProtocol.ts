import type { IngestWorkflowResult } from "../../../local/ingest/runIngestWorkflow.js";
import type { IngestPlan } from "../../../local/stack/LocalStackPlan.js";

/** Where the local stack's parts are, as a job step's child process needs them. */
export interface JobStepStack {
  region: string;
  table: string;
  jobsTable: string;
  queueUrl: string;
  maxReceiveCount: number;
  endpoints: { sqs: string; s3: string; dynamodb: string; sagemakerRuntime: string };
}

/** What the bench asks a job step's child to do. */
export type JobStepRequest =
  | {
      step: "ingest";
      stack: JobStepStack;
      object: { bucket: string; key: string; eTag?: string; size?: number; reason: "PutObject" };
      /** The stack's ingest plan: the state machine whose definition runs, and its function. */
      ingest: Pick<IngestPlan, "stateMachine" | "function">;
    }
  | { step: "write"; stack: JobStepStack; jobId: string; partBytes?: number };

/** What a job step's child reports: its time and `resourceUsage().maxRSS` (KiB) before and after. */
export type JobStepReport =
  | {
      ok: true;
      ms: number;
      /** The process's peak RSS when the step began (modules loaded, clients built). */
      baseline_maxrss_kib: number;
      /** The process's peak RSS when the step ended. */
      peak_maxrss_kib: number;
      result:
        | IngestWorkflowResult
        | { written: true; result_bytes: number; result_lines: number }
        | { written: false; why: string };
    }
  | { ok: false; error: string };
