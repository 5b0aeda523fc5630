/** The capacity controller's queue reader on fauxqs: visible messages per lane, in-flight ones not counted. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { SqsBacklogReader } from "../../../functions/capacityController/index.js";
import { createWorkQueue } from "../../../local/eventSource/createWorkQueue.js";
import { LOCAL_CREDENTIALS } from "../../../local/index.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";

describe("SqsBacklogReader on fauxqs (integration)", () => {
  let fauxqs: Fauxqs;
  let sqs: SQSClient;

  before(async () => {
    fauxqs = await startFauxqs();
    sqs = new SQSClient({
      endpoint: fauxqs.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      useQueueUrlAsEndpoint: false,
    });
  });

  after(async () => {
    sqs?.destroy();
    await fauxqs?.stop();
  });

  it("reads each lane's visible messages from its own queue, leaving out those received and in flight", async () => {
    // Prepare: 10 bulk messages, 3 of them received (in flight); 2 interactive ones.
    const bulk = await createWorkQueue(sqs, { name: "backlog-bulk", endpoint: fauxqs.endpoint });
    const interactive = await createWorkQueue(sqs, {
      name: "backlog-interactive",
      endpoint: fauxqs.endpoint,
    });
    const send = (queueUrl: string, count: number) =>
      sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: Array.from({ length: count }, (_, index) => ({
            Id: `m${index}`,
            MessageBody: `{"n":${index}}`,
          })),
        }),
      );
    await send(bulk.queueUrl, 10);
    await send(interactive.queueUrl, 2);
    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: bulk.queueUrl, MaxNumberOfMessages: 3, VisibilityTimeout: 300 }),
    );
    assert.equal(received.Messages?.length, 3);
    const reader = new SqsBacklogReader(sqs, { interactive: interactive.queueUrl, bulk: bulk.queueUrl });

    // Act
    const backlog = {
      bulk: await reader.visibleMessages("bulk"),
      interactive: await reader.visibleMessages("interactive"),
    };

    // Assert
    assert.deepEqual(backlog, { bulk: 7, interactive: 2 });
  });
});
