import type { Lane } from "../../contract/lanes/lanes.js";
import type { EndpointReading } from "../../core/capacity/capacityTypes.js";

/** Reads the decision endpoint's status and its variants' instance counts (`DescribeEndpoint`). */
export interface EndpointCapacityReader {
  read(): Promise<EndpointReading>;
}

/**
 * Reads a lane's inference component (`layout=lanes-from-zero`): its status, and its copies as the
 * instances of one variant named after the component (`DescribeInferenceComponent`).
 */
export interface ComponentCapacityReader {
  read(lane: Lane): Promise<EndpointReading>;
}

/** Reads a lane's visible messages (`ApproximateNumberOfMessages`). */
export interface QueueBacklogReader {
  visibleMessages(lane: Lane): Promise<number>;
}

/** Reads and sets a lane's event source `MaximumConcurrency`. */
export interface LaneConcurrencySetter {
  /** The maximum concurrency the lane's event source runs with; undefined when none is set. */
  get(lane: Lane): Promise<number | undefined>;
  set(lane: Lane, maximumConcurrency: number): Promise<void>;
}
