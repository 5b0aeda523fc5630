import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, type SQSClient } from "@aws-sdk/client-sqs";
import {
  DEFAULT_DELIVERY_SCHEDULE,
  type DeliverySchedule,
} from "../../contract/delivery/deliverySchedule.js";
import {
  type Delivery,
  DeliveryDlq,
  DeliveryRunner,
  deliveriesOf,
  outcomeChangeOf,
  type ResolvedTarget,
  resolveTargets,
} from "../../core/delivery/index.js";
import type { PolicySet } from "../../core/policy/index.js";
import { OutcomeStreamReader } from "./OutcomeStreamReader.js";

/** Options of {@link startLocalDeliveries}. */
export interface LocalDeliveriesOptions {
  /** The loaded policies: their `deliver:` sections name the targets. */
  policies: PolicySet;
  /** Where `env:` secrets are read, once, at the start. */
  env: Readonly<Record<string, string | undefined>>;
  /** The retry schedule, over {@link DEFAULT_DELIVERY_SCHEDULE} (tests shorten it). */
  schedule?: Partial<DeliverySchedule>;
  /** The delivery DLQ's name in fauxqs. Default `"deliveries-dlq"`. */
  dlqName?: string;
  /** Progress and failures, one line each. Default: nowhere. */
  log?: (line: string) => void;
  /** Told of each delivery that got a 2xx. Default: nothing. */
  onDelivered?: (delivery: Delivery, attempts: number) => void;
  /** Jitter's random source. Default `Math.random`. */
  random?: () => number;
}

/** The parts of the running stack deliveries read from and write to. */
export interface DeliveryStackParts {
  region: string;
  table: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  clients: { dynamodb: DynamoDBClient; sqs: SQSClient };
}

/** Deliveries running beside the local stack. */
export interface LocalDeliveries {
  /** The delivery DLQ (fauxqs), as `decisions up` prints it in `delivery_dlq_url`. */
  dlqUrl: string;
  targets: readonly ResolvedTarget[];
  /** Deliveries under way (attempting or waiting to retry). */
  readonly pending: number;
  /** Stops reading the stream and ends the retries' waits. */
  stop(): Promise<void>;
}

/**
 * Delivers the local stack's outcomes as the deployed stack does: reads the outcomes table's
 * stream on DynamoDB Local, turns each status change of a policy with a `deliver:` section into
 * its deliveries and runs each beside the pipeline by the retry schedule (never inside a decide
 * invocation: a receiver that is down delays no decision), failures kept in a fauxqs DLQ with
 * their reason. Secrets are resolved first, so a missing `env:` variable stops the start.
 *
 * @throws DeliverySecretError for a target whose secret cannot be used.
 */
export async function startLocalDeliveries(
  stack: DeliveryStackParts,
  options: LocalDeliveriesOptions,
): Promise<LocalDeliveries> {
  const log = options.log ?? (() => undefined);
  const targets = resolveTargets(options.policies, options.env);
  const schedule = { ...DEFAULT_DELIVERY_SCHEDULE, ...options.schedule };
  const dlq = new DeliveryDlq(stack.clients.sqs, await createDlq(stack, options.dlqName ?? "deliveries-dlq"));
  const runner = new DeliveryRunner({
    schedule,
    ...(options.random === undefined ? {} : { random: options.random }),
    onFailed: async (failure) => {
      log(`delivery ${failure.delivery_id} to ${failure.target} failed: ${failure.reason}`);
      await dlq.put(failure);
    },
    onError: (error) => log(`delivery: ${error instanceof Error ? error.message : String(error)}`),
    ...(options.onDelivered === undefined ? {} : { onDelivered: options.onDelivered }),
  });
  for (const target of targets.filter(({ target }) => target.bus !== undefined))
    log(
      `delivery target ${target.key} is a bus: bus targets are delivered on AWS only; here they go to the DLQ`,
    );
  const reader = await OutcomeStreamReader.start({
    dynamodb: stack.clients.dynamodb,
    endpoint: stack.dynamodbEndpoint,
    region: stack.region,
    table: stack.table,
    onRecord: (record) => {
      const change = outcomeChangeOf(record);
      if (change === undefined) return;
      for (const delivery of deliveriesOf(change, targets)) runner.start(delivery);
    },
    onError: (error) =>
      log(
        `delivery: reading the outcomes stream failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
  });
  log(`deliveries: ${targets.length} target(s), DLQ ${dlq.queueUrl}`);
  return {
    dlqUrl: dlq.queueUrl,
    targets,
    get pending() {
      return runner.pending;
    },
    async stop() {
      await reader.stop();
      const waiting = runner.pending;
      await runner.stop();
      if (waiting > 0)
        log(`deliveries: ${waiting} delivery(ies) were waiting to retry when the stack stopped`);
    },
  };
}

/** Creates the delivery DLQ in fauxqs; its URL rebased on the endpoint (fauxqs' host does not resolve). */
async function createDlq(stack: DeliveryStackParts, name: string): Promise<string> {
  const output = await stack.clients.sqs.send(
    new CreateQueueCommand({ QueueName: name, Attributes: { MessageRetentionPeriod: "1209600" } }),
  );
  if (output.QueueUrl === undefined) throw new Error("fauxqs returned no QueueUrl for the delivery DLQ");
  return new URL(new URL(output.QueueUrl).pathname, stack.sqsEndpoint).href;
}
