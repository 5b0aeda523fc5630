import { JOB_MESSAGE_ATTRIBUTES } from "../../contract/jobs/jobsTableKeys.js";

/**
 * The job line a work-item message came from, read from its `JOB_MESSAGE_ATTRIBUTES` (a Lambda SQS
 * record's `messageAttributes`); undefined when it carries none or they are unreadable: the line
 * must be written as a positive decimal integer (`1`, `17`; not `0`, `-1`, `1.5`, `0x10`, `1e2`),
 * and such a message is not counted as a line of any job. A line beyond the job's line count is
 * refused where it is counted (`lineCountUpdate`).
 */
export function readJobAttributes(
  attributes: Record<string, { stringValue?: string | undefined } | undefined> | undefined,
): { jobId: string; line: number } | undefined {
  const jobId = attributes?.[JOB_MESSAGE_ATTRIBUTES.jobId]?.stringValue;
  const text = attributes?.[JOB_MESSAGE_ATTRIBUTES.line]?.stringValue ?? "";
  const line = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (jobId === undefined || jobId === "" || !Number.isSafeInteger(line)) return undefined;
  return { jobId, line };
}
