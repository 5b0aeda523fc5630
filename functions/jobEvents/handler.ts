/**
 * The completion Pipe's enrichment function: jobs table stream records in (a batch, as the Pipe
 * gives them), one "Decision Job Completed" detail per record out. It reads no environment and
 * calls no AWS service.
 */
import type { DynamoDBRecord } from "aws-lambda";
import type { JobCompletedDetail } from "../../contract/jobs/JobCompletedEventSchema.js";
import { jobEventsOf } from "./jobEventsOf.js";

/** The Lambda handler (the Pipe's batch of stream records → the events' details). */
export const handler = async (records: DynamoDBRecord[]): Promise<JobCompletedDetail[]> =>
  jobEventsOf(records);
