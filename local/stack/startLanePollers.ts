import type { SQSClient } from "@aws-sdk/client-sqs";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { WorkQueue } from "../eventSource/createWorkQueue.js";
import { type SqsBatchHandler, SqsEventSourcePoller } from "../eventSource/SqsEventSourcePoller.js";
import type { LaneCapacity } from "./deriveLocalLaneCapacity.js";
import type { StartedParts } from "./StartedParts.js";
import type { LocalPollerSettings } from "./StartLocalStackOptions.js";

/** What {@link startLanePollers} runs. */
export interface LanePollerSettings {
  /** Each lane's SQS client (the decide function's own when IAM is enforced: the mapping polls with its role). */
  sqs: Record<Lane, SQSClient>;
  region: string;
  queues: Record<Lane, WorkQueue>;
  handlers: Record<Lane, SqsBatchHandler>;
  capacity: Record<Lane, LaneCapacity>;
  /** Each lane's decide function's timeout (the template's). */
  functionTimeoutMs: Record<Lane, number>;
  /** Each lane's event source batching (the template's mapping: batch size, batching window). */
  batching: Record<
    Lane,
    { batchSize: number; maximumBatchingWindowMs: number; reportBatchItemFailures: boolean }
  >;
  /** The caller's settings for every lane, over the lane's batching and concurrency. */
  poller: LocalPollerSettings | undefined;
  /** The caller's settings for one lane, over `poller`. */
  lanePollers: Partial<Record<Lane, LocalPollerSettings>> | undefined;
}

/**
 * Starts per lane an SQS event source poller (`decide-<lane>`) that runs the lane's handler on its
 * queue with the lane's batching (the template's) and concurrency (the lane's share of the local
 * adapter, `deriveLocalLaneCapacity`), each registered in `parts`; a stop abandons a
 * long poll in progress (the stack's queues go away with it).
 */
export async function startLanePollers(
  settings: LanePollerSettings,
  parts: StartedParts,
): Promise<Record<Lane, SqsEventSourcePoller>> {
  const pollers = {} as Record<Lane, SqsEventSourcePoller>;
  for (const lane of LANES) {
    pollers[lane] = await parts.timed(
      `the ${lane} lane's event source poller`,
      async () =>
        new SqsEventSourcePoller({
          sqs: settings.sqs[lane],
          queueUrl: settings.queues[lane].queueUrl,
          queueArn: settings.queues[lane].queueArn,
          region: settings.region,
          handler: settings.handlers[lane],
          functionTimeoutMs: settings.functionTimeoutMs[lane],
          functionName: `decide-${lane}`,
          ...settings.batching[lane],
          maximumConcurrency: settings.capacity[lane].maximumConcurrency,
          ...settings.poller,
          ...settings.lanePollers?.[lane],
        }).start(),
      // The stack's queues go away with it: a long poll in progress need not be waited for.
      (part) => part.stop({ abandonReceive: true }),
    );
  }
  return pollers;
}
