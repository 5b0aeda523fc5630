/** The poller's event source mapping semantics on fauxqs, with the real SQS client. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import {
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { createWorkQueue, type WorkQueue } from "../../../local/eventSource/createWorkQueue.js";
import {
  type BatchReport,
  FunctionTimeoutError,
  type SqsBatchHandler,
  SqsEventSourcePoller,
  type SqsEventSourcePollerOptions,
} from "../../../local/eventSource/SqsEventSourcePoller.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { createLocalClients, type LocalClients } from "../../../local/stack/createLocalClients.js";

const TEST_TIMEOUT = { timeout: 60_000 };

describe("SqsEventSourcePoller on fauxqs (integration)", () => {
  let fauxqs: Fauxqs;
  let clients: LocalClients;
  let sqs: SQSClient;
  let queues = 0;
  const pollers: SqsEventSourcePoller[] = [];

  before(async () => {
    fauxqs = await startFauxqs();
    clients = createLocalClients({ region: fauxqs.region, sqs: fauxqs.endpoint });
    sqs = clients.sqs as SQSClient;
  });

  after(async () => {
    await Promise.all(pollers.map((poller) => poller.stop()));
    clients?.destroy();
    await fauxqs?.stop();
  });

  async function newQueue(options: { maxReceiveCount?: number; visibilityTimeoutSeconds?: number } = {}) {
    queues += 1;
    return createWorkQueue(sqs, { name: `work-${queues}`, endpoint: fauxqs.endpoint, ...options });
  }

  function startPoller(
    queue: WorkQueue,
    handler: SqsBatchHandler,
    options: Partial<SqsEventSourcePollerOptions> = {},
  ): SqsEventSourcePoller {
    const poller = new SqsEventSourcePoller({
      sqs,
      queueUrl: queue.queueUrl,
      queueArn: queue.queueArn,
      region: fauxqs.region,
      handler,
      waitTimeSeconds: 1,
      ...options,
    });
    pollers.push(poller);
    return poller.start();
  }

  async function send(queue: WorkQueue, bodies: string[]): Promise<string[]> {
    const answer = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.queueUrl,
        Entries: bodies.map((body, index) => ({ Id: String(index), MessageBody: body })),
      }),
    );
    assert.equal(answer.Failed?.length ?? 0, 0);
    return (answer.Successful ?? []).map((entry) => entry.MessageId ?? "");
  }

  it("hands the handler records and a context built like Lambda's", TEST_TIMEOUT, async () => {
    const queue = await newQueue();
    const body = '{"id": "t-1", "state": {"2024": 1, "a": 2.0}}';
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.queueUrl,
        MessageBody: body,
        MessageAttributes: { tenant: { DataType: "String", StringValue: "acme" } },
      }),
    );
    const seen = new Deferred<{ event: SQSEvent; context: Context; remaining: number }>();
    const poller = startPoller(
      queue,
      async (event, context) => {
        seen.resolve({ event, context, remaining: context.getRemainingTimeInMillis() });
      },
      { functionTimeoutMs: 45_000, functionName: "decide-local" },
    );
    const { event, context, remaining } = await seen.promise;
    await poller.stop();

    assert.equal(event.Records.length, 1);
    const record = event.Records[0] as SQSRecord;
    assert.equal(record.body, body);
    assert.equal(record.eventSource, "aws:sqs");
    assert.equal(record.eventSourceARN, queue.queueArn);
    assert.equal(record.awsRegion, "us-east-1");
    assert.equal(record.md5OfBody, createHash("md5").update(body).digest("hex"));
    assert.equal(record.attributes.ApproximateReceiveCount, "1");
    assert.match(record.attributes.SentTimestamp, /^\d{13}$/);
    assert.match(record.attributes.ApproximateFirstReceiveTimestamp, /^\d{13}$/);
    assert.deepEqual(record.messageAttributes, {
      tenant: { stringValue: "acme", stringListValues: [], binaryListValues: [], dataType: "String" },
    });
    assert.ok(remaining > 0 && remaining <= 45_000, `remaining ${remaining}`);
    assert.equal(context.functionName, "decide-local");
    assert.equal(context.invokedFunctionArn, "arn:aws:lambda:us-east-1:000000000000:function:decide-local");
    assert.equal(poller.stats().succeeded, 1);
  });

  it(
    "deletes only the records that succeeded; the failed ones come back after the visibility timeout",
    TEST_TIMEOUT,
    async () => {
      // The queue's own visibility timeout is long: the redelivery below proves the poller's applies.
      const queue = await newQueue({ visibilityTimeoutSeconds: 300 });
      const ids = await send(queue, ["a", "b", "c", "d", "e"]);
      const failOnce = new Set([ids[1], ids[3]]);
      const deliveries: { id: string; count: string }[] = [];
      const done = new Deferred<void>();
      const poller = startPoller(
        queue,
        async (event): Promise<SQSBatchResponse> => {
          const failures = [];
          for (const record of event.Records) {
            deliveries.push({ id: record.messageId, count: record.attributes.ApproximateReceiveCount });
            if (record.attributes.ApproximateReceiveCount === "1" && failOnce.has(record.messageId)) {
              failures.push({ itemIdentifier: record.messageId });
            }
          }
          if (deliveries.length === 7) done.resolve();
          return { batchItemFailures: failures };
        },
        { batchSize: 10, maximumBatchingWindowMs: 500, visibilityTimeoutSeconds: 1, maximumConcurrency: 1 },
      );
      await done.promise;
      await poller.stop();

      const secondDeliveries = deliveries
        .filter((delivery) => delivery.count === "2")
        .map((delivery) => delivery.id);
      assert.deepEqual(secondDeliveries.sort(), [ids[1], ids[3]].sort());
      assert.equal(deliveries.filter((delivery) => delivery.count === "1").length, 5);
      assert.deepEqual(poller.stats(), {
        ...poller.stats(),
        records: 7,
        succeeded: 5,
        failed: 2,
        wholeBatchFailures: 0,
      });
    },
  );

  it("fails the whole batch when the handler throws", TEST_TIMEOUT, async () => {
    const queue = await newQueue({ visibilityTimeoutSeconds: 1 });
    await send(queue, ["x", "y"]);
    const counts: string[] = [];
    const done = new Deferred<void>();
    const reports: BatchReport[] = [];
    const poller = startPoller(
      queue,
      async (event) => {
        for (const record of event.Records) counts.push(record.attributes.ApproximateReceiveCount);
        if (counts.length === 4) done.resolve();
        if (event.Records.some((record) => record.attributes.ApproximateReceiveCount === "1")) {
          throw new Error("boom");
        }
      },
      {
        batchSize: 10,
        maximumBatchingWindowMs: 500,
        maximumConcurrency: 1,
        onBatch: (report) => reports.push(report),
      },
    );
    await done.promise;
    await poller.stop();
    assert.deepEqual(counts, ["1", "1", "2", "2"]);
    assert.equal(reports[0]?.outcome.wholeBatchFailure, "Error: boom");
    assert.equal(reports[0]?.outcome.succeeded.length, 0);
  });

  it(
    "lets the queue redrive a record that always fails to the DLQ after maxReceiveCount",
    TEST_TIMEOUT,
    async () => {
      const queue = await newQueue({ maxReceiveCount: 3, visibilityTimeoutSeconds: 1 });
      const [poisonId] = await send(queue, ["poison"]);
      await send(queue, ["fine"]);
      const poisonCounts: string[] = [];
      const poller = startPoller(
        queue,
        async (event): Promise<SQSBatchResponse> => ({
          batchItemFailures: event.Records.filter((record) => record.body === "poison").map((record) => {
            poisonCounts.push(record.attributes.ApproximateReceiveCount);
            return { itemIdentifier: record.messageId };
          }),
        }),
        { batchSize: 1 },
      );
      let dead: { body?: string; id?: string; count?: string } | undefined;
      while (dead === undefined) {
        const answer = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queue.dlqUrl,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ["ApproximateReceiveCount"],
          }),
        );
        const message = answer.Messages?.[0];
        if (message !== undefined) {
          dead = {
            body: message.Body,
            id: message.MessageId,
            count: message.Attributes?.ApproximateReceiveCount,
          };
        }
      }
      await poller.stop();

      assert.deepEqual(poisonCounts, ["1", "2", "3"]);
      assert.equal(dead.body, "poison");
      assert.equal(dead.id, poisonId);
      // fauxqs moves it on the receive after the third (that receive counts: 4), then counts ours (5).
      assert.ok(Number(dead.count) > 3, `receive count in the DLQ: ${dead.count}`);
      assert.equal(poller.stats().succeeded, 1);
    },
  );

  it("runs at most maximumConcurrency batches at once, and reaches it", TEST_TIMEOUT, async () => {
    const queue = await newQueue();
    for (let chunk = 0; chunk < 3; chunk++) {
      await send(
        queue,
        Array.from({ length: 10 }, (_, index) => `m${chunk * 10 + index}`),
      );
    }
    let active = 0;
    let maxActive = 0;
    let handled = 0;
    const full = new Deferred<void>();
    const all = new Deferred<void>();
    const poller = startPoller(
      queue,
      async (event) => {
        active++;
        maxActive = Math.max(maxActive, active);
        if (active === 3) full.resolve();
        // Every batch waits until three ran together once: a poller allowing more would show it.
        await full.promise;
        active--;
        handled += event.Records.length;
        if (handled === 30) all.resolve();
      },
      { batchSize: 1, maximumConcurrency: 3 },
    );
    await all.promise;
    await poller.stop();
    assert.equal(maxActive, 3);
    assert.equal(poller.stats().maxInFlightBatches, 3);
    assert.equal(poller.stats().succeeded, 30);
  });

  it("keeps gathering until the batch is full within the batching window", TEST_TIMEOUT, async () => {
    const queue = await newQueue();
    const sizes: number[] = [];
    const done = new Deferred<void>();
    const poller = startPoller(
      queue,
      async (event) => {
        sizes.push(event.Records.length);
        done.resolve();
      },
      { batchSize: 4, maximumBatchingWindowMs: 120_000, maximumConcurrency: 1 },
    );
    for (const body of ["1", "2", "3", "4"]) await send(queue, [body]);
    await done.promise;
    await poller.stop();
    assert.deepEqual(sizes, [4]);
  });

  it("invokes with fewer records than the batch size once the window has passed", TEST_TIMEOUT, async () => {
    const queue = await newQueue();
    await send(queue, ["1", "2", "3"]);
    const sizes: number[] = [];
    const done = new Deferred<void>();
    const poller = startPoller(
      queue,
      async (event) => {
        sizes.push(event.Records.length);
        done.resolve();
      },
      { batchSize: 100, maximumBatchingWindowMs: 300, maximumConcurrency: 1 },
    );
    await done.promise;
    await poller.stop();
    assert.deepEqual(sizes, [3]);
  });

  it("fails the whole batch when the handler outlives the function timeout", TEST_TIMEOUT, async () => {
    const queue = await newQueue({ visibilityTimeoutSeconds: 60 });
    await send(queue, ["slow"]);
    const report = new Deferred<BatchReport>();
    const never = new Deferred<void>();
    const poller = startPoller(queue, () => never.promise, {
      functionTimeoutMs: 100,
      maximumConcurrency: 1,
      onBatch: (each) => report.resolve(each),
    });
    const { outcome } = await report.promise;
    await poller.stop();
    never.resolve();
    assert.equal(outcome.succeeded.length, 0);
    assert.equal(outcome.failed.length, 1);
    assert.match(outcome.wholeBatchFailure ?? "", new RegExp(new FunctionTimeoutError(100).message));
  });

  it(
    "drains on stop: an in-flight batch finishes and is deleted before stop resolves",
    TEST_TIMEOUT,
    async () => {
      const queue = await newQueue({ visibilityTimeoutSeconds: 60 });
      await send(queue, ["in-flight"]);
      const entered = new Deferred<void>();
      const release = new Deferred<void>();
      const poller = startPoller(
        queue,
        async () => {
          entered.resolve();
          await release.promise;
        },
        { maximumConcurrency: 2 },
      );
      await entered.promise;
      let stopped = false;
      const stopping = poller.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(stopped, false);
      release.resolve();
      await stopping;
      assert.equal(poller.stats().succeeded, 1);
      const left = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, VisibilityTimeout: 0 }),
      );
      assert.equal(left.Messages?.length ?? 0, 0);
    },
  );

  it(
    "leaves nothing invisible when it stops during a long poll: a message sent just after is received at once",
    TEST_TIMEOUT,
    async () => {
      const queue = await newQueue({ visibilityTimeoutSeconds: 300 });
      let receiving: (() => void) | undefined;
      const receiveSent = new Promise<void>((resolve) => {
        receiving = resolve;
      });
      // The poller's client, noting when its first receive (a long poll on the empty queue) goes out.
      const watched = {
        send: (command: unknown, options?: unknown) => {
          if (command instanceof ReceiveMessageCommand) receiving?.();
          return (sqs.send as (c: unknown, o?: unknown) => Promise<unknown>)(command, options);
        },
      } as unknown as SQSClient;
      const handled: string[] = [];
      const poller = startPoller(
        queue,
        async (event: SQSEvent) => {
          handled.push(...event.Records.map((record) => record.body));
          return { batchItemFailures: [] };
        },
        { sqs: watched, waitTimeSeconds: 2 },
      );
      await receiveSent;
      // Let the request reach the emulator (a receive aborted before it is sent takes nothing anyway).
      await new Promise((resolve) => setTimeout(resolve, 200));

      await poller.stop();
      await send(queue, ["after-stop"]);

      const answer = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, WaitTimeSeconds: 2, VisibilityTimeout: 0 }),
      );
      const received = (answer.Messages ?? []).map((message) => message.Body);
      assert.deepEqual([...handled, ...received], ["after-stop"]);
    },
  );
});

describe("SqsEventSourcePoller settings", () => {
  it("refuses a batch above 10 without a batching window, as Lambda does", () => {
    assert.throws(
      () =>
        new SqsEventSourcePoller({
          sqs: {} as SQSClient,
          queueUrl: "u",
          queueArn: "a",
          region: "r",
          handler: async () => undefined,
          batchSize: 11,
        }),
      RangeError,
    );
  });
});

class Deferred<T> {
  resolve!: (value: T) => void;
  readonly promise = new Promise<T>((resolve) => {
    this.resolve = resolve;
  });
}
