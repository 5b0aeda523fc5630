import { DescribeInferenceComponentCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { EndpointReading } from "../../core/capacity/capacityTypes.js";
import type { ComponentCapacityReader } from "./capacityPorts.js";
import { LaneResourceReader } from "./LaneResourceReader.js";

/**
 * {@link ComponentCapacityReader} over `DescribeInferenceComponent`: the component's
 * `InferenceComponentStatus` and its `RuntimeConfig`'s `CurrentCopyCount` and `DesiredCopyCount`
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DescribeInferenceComponent.html,
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InferenceComponentRuntimeConfigSummary.html),
 * as a reading of one "variant" named after the component whose instances are copies: the rules
 * that size a lane from an endpoint's instances size it from its component's copies.
 */
export class SageMakerComponentReader
  extends LaneResourceReader<Pick<SageMakerClient, "send">>
  implements ComponentCapacityReader
{
  async read(lane: Lane): Promise<EndpointReading> {
    const name = this.resources[lane];
    const answer = await this.client.send(
      new DescribeInferenceComponentCommand({ InferenceComponentName: name }),
    );
    return {
      status: answer.InferenceComponentStatus ?? "unknown",
      variants: [
        {
          name,
          current: answer.RuntimeConfig?.CurrentCopyCount,
          desired: answer.RuntimeConfig?.DesiredCopyCount,
        },
      ],
    };
  }
}
