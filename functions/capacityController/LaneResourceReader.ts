import type { PerLane } from "../../core/capacity/capacityTypes.js";

/**
 * A reader of one AWS resource per lane (its queue, its inference component) through an SDK
 * client: what {@link SqsBacklogReader} and {@link SageMakerComponentReader} are built on.
 */
export abstract class LaneResourceReader<Client> {
  /**
   * @param client the SDK client (`send` is all a reader calls).
   * @param resources each lane's resource: a queue URL, an inference component's name.
   */
  constructor(
    readonly client: Client,
    readonly resources: PerLane<string>,
  ) {}
}
