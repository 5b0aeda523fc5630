import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import type { JobCompletedDetail } from "../../contract/jobs/JobCompletedEventSchema.js";
import { JobSchema } from "../../contract/jobs/JobSchema.js";
import { jobCompletedDetailOf } from "../../core/jobs/jobCompletedDetailOf.js";

/**
 * The completion Pipe's enrichment: each jobs table stream record (filtered by the Pipe to the
 * change that gave a job record its final status) becomes the detail of its "Decision Job
 * Completed" event, in order; the Pipe puts each on the outcomes bus. The new image is read as
 * the job record it is (`JobSchema`), so the event carries the contract's types, not DynamoDB's
 * attribute values (`{"N": "3"}`).
 *
 * @throws when a record has no new image or it is not a final job record (the Pipe retries the
 *   batch, then keeps it in its dead-letter queue, which an alarm watches).
 */
export function jobEventsOf(records: readonly DynamoDBRecord[]): JobCompletedDetail[] {
  return records.map((record) => {
    const image = record.dynamodb?.NewImage;
    if (image === undefined) throw new RangeError(`stream record ${record.eventID ?? "?"} has no new image`);
    return jobCompletedDetailOf(JobSchema.parse(unmarshall(image as Record<string, AttributeValue>)));
  });
}
