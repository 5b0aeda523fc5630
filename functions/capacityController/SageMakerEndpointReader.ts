import { DescribeEndpointCommand, type SageMakerClient } from "@aws-sdk/client-sagemaker";
import type { EndpointReading } from "../../core/capacity/capacityTypes.js";
import type { EndpointCapacityReader } from "./capacityPorts.js";

/**
 * {@link EndpointCapacityReader} over `DescribeEndpoint`: the endpoint's `EndpointStatus` and each
 * production variant's `CurrentInstanceCount` and `DesiredInstanceCount`
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DescribeEndpoint.html,
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ProductionVariantSummary.html).
 */
export class SageMakerEndpointReader implements EndpointCapacityReader {
  constructor(
    readonly client: Pick<SageMakerClient, "send">,
    readonly endpointName: string,
  ) {}

  async read(): Promise<EndpointReading> {
    const answer = await this.client.send(new DescribeEndpointCommand({ EndpointName: this.endpointName }));
    return {
      status: answer.EndpointStatus ?? "unknown",
      variants: (answer.ProductionVariants ?? []).map((variant) => ({
        name: variant.VariantName ?? "",
        current: variant.CurrentInstanceCount,
        desired: variant.DesiredInstanceCount,
      })),
    };
  }
}
