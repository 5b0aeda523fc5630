/** fauxqs on loopback: SQS work queue + DLQ with redrive, S3, with the real SDK clients. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { PortInUseError } from "../../../local/errors.js";
import { createWorkQueue, type WorkQueue } from "../../../local/eventSource/createWorkQueue.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import {
  createLocalClients,
  LOCAL_CREDENTIALS,
  type LocalClients,
} from "../../../local/stack/createLocalClients.js";
import { listeningSockets } from "../listeningSockets.js";

describe("startFauxqs (integration)", () => {
  let fauxqs: Fauxqs;
  let clients: LocalClients;
  let queue: WorkQueue;

  before(async () => {
    fauxqs = await startFauxqs();
    clients = createLocalClients({ region: fauxqs.region, sqs: fauxqs.endpoint, s3: fauxqs.endpoint });
    queue = await createWorkQueue(required(clients.sqs), {
      name: "work",
      maxReceiveCount: 2,
      visibilityTimeoutSeconds: 0,
      endpoint: fauxqs.endpoint,
    });
  });

  after(async () => {
    clients?.destroy();
    await fauxqs?.stop();
  });

  it("listens on 127.0.0.1 only", async () => {
    const mine = (await listeningSockets(process.pid)).filter((socket) => socket.port === fauxqs.port);
    assert.deepEqual(mine, [{ family: "tcp", address: "127.0.0.1", port: fauxqs.port }]);
  });

  it("returns queue URLs on its loopback endpoint, usable by a client that follows queue URLs", async () => {
    assert.equal(queue.queueUrl, `${fauxqs.endpoint}/000000000000/work`);
    assert.equal(queue.dlqUrl, `${fauxqs.endpoint}/000000000000/work-dlq`);
    assert.equal(queue.dlqArn, "arn:aws:sqs:us-east-1:000000000000:work-dlq");
    // The SDK's default: the queue URL's host is the endpoint.
    const plain = new SQSClient({ region: fauxqs.region, credentials: LOCAL_CREDENTIALS });
    try {
      const sent = await plain.send(new SendMessageCommand({ QueueUrl: queue.dlqUrl, MessageBody: "plain" }));
      assert.ok(sent.MessageId);
      const got = await plain.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, WaitTimeSeconds: 0 }));
      assert.equal(got.Messages?.[0]?.Body, "plain");
      await plain.send(
        new DeleteMessageCommand({ QueueUrl: queue.dlqUrl, ReceiptHandle: got.Messages?.[0]?.ReceiptHandle }),
      );
    } finally {
      plain.destroy();
    }
  });

  it("moves a message received maxReceiveCount times without deletion to the DLQ", async () => {
    const sqs = required(clients.sqs);
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: "poison" }));
    const counts: string[] = [];
    for (let receive = 0; receive < 3; receive++) {
      const got = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queue.queueUrl,
          MessageSystemAttributeNames: ["ApproximateReceiveCount"],
          WaitTimeSeconds: 0,
        }),
      );
      for (const message of got.Messages ?? [])
        counts.push(message.Attributes?.ApproximateReceiveCount ?? "?");
    }
    assert.deepEqual(counts, ["1", "2"]);
    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, WaitTimeSeconds: 0 }));
    assert.equal(dead.Messages?.[0]?.Body, "poison");
  });

  it("serves S3 path-style on the same endpoint", async () => {
    const s3 = required(clients.s3);
    await s3.send(new CreateBucketCommand({ Bucket: "ingest" }));
    await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: "a/b.jsonl", Body: '{"id":"1"}\n' }));
    const got = await s3.send(new GetObjectCommand({ Bucket: "ingest", Key: "a/b.jsonl" }));
    assert.equal(await got.Body?.transformToString(), '{"id":"1"}\n');
  });

  it("names the port when it is taken", async () => {
    await assert.rejects(startFauxqs({ port: fauxqs.port }), (error: unknown) => {
      assert.ok(error instanceof PortInUseError);
      assert.equal(error.port, fauxqs.port);
      assert.match(error.message, /^fauxqs/);
      return true;
    });
  });
});

function required<T>(value: T | undefined): T {
  assert.ok(value !== undefined);
  return value;
}
