import {
  GetEventSourceMappingCommand,
  type LambdaClient,
  UpdateEventSourceMappingCommand,
} from "@aws-sdk/client-lambda";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { PerLane } from "../../core/capacity/capacityTypes.js";
import type { LaneConcurrencySetter } from "./capacityPorts.js";

/**
 * {@link LaneConcurrencySetter} over the lanes' SQS event source mappings: reads `ScalingConfig.MaximumConcurrency`
 * (`GetEventSourceMapping`) and sets it (`UpdateEventSourceMapping` with only `ScalingConfig`, so
 * nothing else of the mapping changes); https://docs.aws.amazon.com/lambda/latest/api/API_UpdateEventSourceMapping.html,
 * https://docs.aws.amazon.com/lambda/latest/dg/API_ScalingConfig.html.
 */
export class LambdaEventSourceConcurrency implements LaneConcurrencySetter {
  constructor(
    readonly client: Pick<LambdaClient, "send">,
    /** Each lane's event source mapping UUID. */
    readonly mappings: PerLane<string>,
  ) {}

  async get(lane: Lane): Promise<number | undefined> {
    const mapping = await this.client.send(new GetEventSourceMappingCommand({ UUID: this.mappings[lane] }));
    return mapping.ScalingConfig?.MaximumConcurrency;
  }

  async set(lane: Lane, maximumConcurrency: number): Promise<void> {
    await this.client.send(
      new UpdateEventSourceMappingCommand({
        UUID: this.mappings[lane],
        ScalingConfig: { MaximumConcurrency: maximumConcurrency },
      }),
    );
  }
}
