import type { Logger } from "@aws-lambda-powertools/logger";
import type { S3Client } from "@aws-sdk/client-s3";
import type { Clock } from "../../core/common/Clock.js";
import type { JobLedger } from "../../core/jobs/JobLedger.js";
import type { OutcomeStore } from "../../core/outcomes/index.js";
import type { PolicySet } from "../../core/policy/index.js";
import type { WorkQueueSender } from "./WorkQueueSender.js";

/** What `ingestObject` works with. */
export interface IngestDeps {
  s3: S3Client;
  sender: WorkQueueSender;
  outcomes: OutcomeStore;
  policies: PolicySet;
  logger: Logger;
  clock: Clock;
  /** Lines read per invocation before it stops at a checkpoint. */
  maxLinesPerInvocation: number;
  /**
   * The jobs table: with it, each object version is a job (created on the first read, its lines
   * counted as they end, `deciding` once read to its end) and each message carries its job and
   * line. Default: none (no jobs).
   */
  jobs?: JobLedger;
}
