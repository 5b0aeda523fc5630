import { SQSClient } from "@aws-sdk/client-sqs";
import { type AwsTarget, awsClientConfig } from "../common/awsClientConfig.js";

/**
 * An SQS client for a command's `--region` / `--endpoint-url` and the queue it works on.
 *
 * With an endpoint (a local emulator), `useQueueUrlAsEndpoint: false`: fauxqs' queue URLs name
 * `sqs.<region>.localhost`, which does not resolve on every machine, and the SDK would otherwise
 * send to the queue URL's host. Without one, the region defaults to the one the
 * AWS queue URL names (`https://sqs.<region>.amazonaws.com/…`), so `--region` is rarely needed.
 */
export function createSqsClient(target: AwsTarget, queueUrl?: string): SQSClient {
  const config = awsClientConfig(target);
  if (target.endpointUrl !== undefined) return new SQSClient({ ...config, useQueueUrlAsEndpoint: false });
  const region = config.region ?? regionOfQueueUrl(queueUrl);
  return new SQSClient(region === undefined ? config : { ...config, region });
}

/** The region an AWS queue URL names, or undefined. */
export function regionOfQueueUrl(queueUrl: string | undefined): string | undefined {
  const match = /^https?:\/\/sqs[.-]([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\//.exec(queueUrl ?? "");
  return match?.[1];
}
