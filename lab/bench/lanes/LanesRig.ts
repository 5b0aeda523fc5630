import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { JobCompletedDetail } from "../../../contract/index.js";
import type { JobsReader } from "../../../core/jobs/index.js";
import type { LocalStack } from "../../../local/index.js";
import type { LanesWorkload } from "./buildLanesWorkload.js";

/** The running stack and what every phase reads. */
export interface LanesRig {
  stack: LocalStack;
  documents: DynamoDBDocumentClient;
  jobs: JobsReader;
  workload: LanesWorkload;
  /** "Decision Job Completed" events, as they come. */
  completed: JobCompletedDetail[];
  ingestErrors: unknown[];
  stallMs: number;
  log: (line: string) => void;
}
