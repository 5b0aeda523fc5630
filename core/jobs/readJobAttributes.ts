import { JOB_MESSAGE_ATTRIBUTES } from "../../contract/jobs/jobsTableKeys.js";

/**
 * The job line a work-item message came from, read from its `JOB_MESSAGE_ATTRIBUTES` (a Lambda SQS
 * record's `messageAttributes`); undefined when it carries none or they are unreadable.
 */
export function readJobAttributes(
  attributes: Record<string, { stringValue?: string | undefined } | undefined> | undefined,
): { jobId: string; line: number } | undefined {
  const jobId = attributes?.[JOB_MESSAGE_ATTRIBUTES.jobId]?.stringValue;
  const line = Number(attributes?.[JOB_MESSAGE_ATTRIBUTES.line]?.stringValue);
  if (jobId === undefined || jobId === "" || !Number.isSafeInteger(line) || line < 1) return undefined;
  return { jobId, line };
}
