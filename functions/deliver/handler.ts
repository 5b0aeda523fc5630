/**
 * The deliver function's entry point (each delivery target's queue invokes it; docs/deliveries.md):
 * configuration, policies and secrets read once at cold start, then one attempt per record.
 */
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { SQSClient } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { DEFAULT_DELIVERY_SCHEDULE } from "../../contract/delivery/deliverySchedule.js";
import { resolveTargets } from "../../core/delivery/index.js";
import { loadPolicies } from "../../core/policy/index.js";
import { deliverRecords } from "./deliverRecords.js";
import { readDeliverConfig } from "./readDeliverConfig.js";

const config = readDeliverConfig(process.env);
const targets = resolveTargets(await loadPolicies(config.policyDir), process.env);
const deps = {
  sqs: new SQSClient({}),
  eventBridge: new EventBridgeClient({}),
  targets: new Map(targets.map((target) => [target.key, target])),
  dlqUrls: config.dlqUrls,
  schedule: DEFAULT_DELIVERY_SCHEDULE,
  log: (line: string, fields: Record<string, unknown>) =>
    console.log(JSON.stringify({ message: line, ...fields })),
};

/** The Lambda handler (a delivery queue's batch → one attempt per record, partial batch failures). */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => deliverRecords(event.Records, deps);
