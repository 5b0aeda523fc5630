import { ListQueueTagsCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { type Lane, LaneSchema } from "../../contract/lanes/lanes.js";

/** The tag that names a queue's lane (`lane=bulk`); the local stack tags each lane's queue and DLQ. */
export const LANE_TAG = "lane";

/** What {@link laneOfQueue} found. */
export interface QueueLane {
  /** The lane the queue's `lane` tag names; undefined when it has none (or not a lane's name). */
  lane: Lane | undefined;
  /** Why the tags could not be read (ListQueueTags failed), when they could not. */
  unreadable?: string;
}

/**
 * The lane of a queue, from its `lane` tag (ListQueueTags). Never throws: a queue whose tags
 * cannot be read (no `sqs:ListQueueTags` permission, a service without the action) has no lane
 * here, and `unreadable` says why, for the caller to tell.
 */
export async function laneOfQueue(sqs: Pick<SQSClient, "send">, queueUrl: string): Promise<QueueLane> {
  try {
    const answer = await sqs.send(new ListQueueTagsCommand({ QueueUrl: queueUrl }));
    const parsed = LaneSchema.safeParse(answer.Tags?.[LANE_TAG]);
    return { lane: parsed.success ? parsed.data : undefined };
  } catch (error) {
    return {
      lane: undefined,
      unreadable: `the lane of ${queueUrl} is unknown: its tags could not be read (${(error as Error).name}: ${(error as Error).message})`,
    };
  }
}
