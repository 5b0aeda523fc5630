/**
 * A record whose invocation outlives the queue's visibility timeout (`decisions up
 * --visibility-timeout 1`) is not received again while it runs: the poller keeps the records in
 * flight hidden (VisibilityHeartbeat). Before, each such receive counted towards maxReceiveCount and
 * copies of records whose outcome had been written reached the dead-letter queue, where
 * `decisions dlq list` showed them with no failure record. On fauxqs with the real SQS client.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSBatchResponse } from "aws-lambda";
import { createWorkQueue } from "../../../local/eventSource/createWorkQueue.js";
import { SqsEventSourcePoller } from "../../../local/eventSource/SqsEventSourcePoller.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { createLocalClients, type LocalClients } from "../../../local/stack/createLocalClients.js";

const VISIBILITY_S = 1;

/**
 * The SQS client, watching its receives: {@link receiveIssuedAfter} resolves once a receive sent at
 * or after a time has been answered — by then a message not kept hidden since that time is visible
 * again and would have been received.
 */
function watchReceives(sqs: SQSClient) {
  const waiting: Array<{ from: number; resolve: () => void }> = [];
  const watched = {
    send: async (command: Parameters<SQSClient["send"]>[0], options?: { abortSignal?: AbortSignal }) => {
      const issued = Date.now();
      const answer = await sqs.send(command as never, options);
      if (command instanceof ReceiveMessageCommand) {
        for (const wait of waiting.filter((each) => issued >= each.from)) {
          waiting.splice(waiting.indexOf(wait), 1);
          wait.resolve();
        }
      }
      return answer;
    },
  } as unknown as SQSClient;
  const receiveIssuedAfter = (from: number): Promise<void> =>
    new Promise((resolve) => waiting.push({ from, resolve }));
  return { watched, receiveIssuedAfter };
}

describe("the poller keeps records in flight hidden (integration)", () => {
  let fauxqs: Fauxqs;
  let clients: LocalClients;
  let sqs: SQSClient;

  before(async () => {
    fauxqs = await startFauxqs();
    clients = createLocalClients({ region: fauxqs.region, sqs: fauxqs.endpoint });
    sqs = clients.sqs as SQSClient;
  });

  after(async () => {
    clients?.destroy();
    await fauxqs?.stop();
  });

  it("receives a record once although its invocation outlives the visibility timeout; nothing reaches the DLQ", {
    timeout: 60_000,
  }, async () => {
    const queue = await createWorkQueue(sqs, {
      name: "slow-work",
      endpoint: fauxqs.endpoint,
      visibilityTimeoutSeconds: VISIBILITY_S,
      maxReceiveCount: 2,
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: '{"id":"slow-1"}' }));
    const { watched, receiveIssuedAfter } = watchReceives(sqs);
    const invocations: string[] = [];
    const errors: unknown[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const poller = new SqsEventSourcePoller({
      sqs: watched,
      queueUrl: queue.queueUrl,
      queueArn: queue.queueArn,
      region: fauxqs.region,
      // The other worker keeps receiving while the first invocation runs.
      maximumConcurrency: 2,
      waitTimeSeconds: 1,
      functionTimeoutMs: 60_000,
      onError: (error) => errors.push(error),
      handler: async (event): Promise<SQSBatchResponse> => {
        for (const record of event.Records) {
          invocations.push(`${record.body} receive ${record.attributes.ApproximateReceiveCount}`);
        }
        if (invocations.length === 1) {
          // Runs past three visibility timeouts, until the other worker received once more after them.
          await receiveIssuedAfter(Date.now() + 3 * VISIBILITY_S * 1000);
          finished();
        }
        return { batchItemFailures: [] };
      },
    }).start();
    await done;
    await poller.stop();

    assert.deepEqual(invocations, ['{"id":"slow-1"} receive 1']);
    assert.deepEqual(errors, []);
    const counts = async (queueUrl: string) =>
      (
        await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: queueUrl,
            AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
          }),
        )
      ).Attributes;
    assert.deepEqual(await counts(queue.queueUrl), {
      ApproximateNumberOfMessages: "0",
      ApproximateNumberOfMessagesNotVisible: "0",
    });
    assert.deepEqual(await counts(queue.dlqUrl), {
      ApproximateNumberOfMessages: "0",
      ApproximateNumberOfMessagesNotVisible: "0",
    });
  });
});
