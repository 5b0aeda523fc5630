/** `decisions dlq list|redrive` against fauxqs on 127.0.0.1: a real redrive policy fills the DLQ. */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type Message,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { createDlqCommand } from "../../../cli/commands/dlqCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { createWorkQueue, type WorkQueue } from "../../../local/eventSource/createWorkQueue.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";

function capture() {
  let out = "";
  let err = "";
  const command = createDlqCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { command, stdout: () => out, stderr: () => err };
}

async function receiveAll(sqs: SQSClient, queueUrl: string, visibility: number): Promise<Message[]> {
  const messages: Message[] = [];
  for (;;) {
    const output = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: visibility,
        MessageAttributeNames: ["All"],
      }),
    );
    if (!output.Messages?.length) return messages;
    messages.push(...output.Messages);
  }
}

describe("decisions dlq (fauxqs)", () => {
  let fauxqs: Fauxqs;
  let sqs: SQSClient;
  let queues = 0;
  const bodies = [
    '{"id": "t-1", "policy": "ticket-routing", "state": {"b": 1, "a": 2.0}}',
    '{"id": "t-2", "policy": "ticket-routing", "state": "printer on fire"}',
    '{"version": "0", "id": "ev-9", "detail-type": "Incident Opened", "source": "acme.monitoring", "detail": {}}',
  ];

  /** A work queue whose three messages were received without a delete until SQS moved them to the DLQ. */
  const deadLettered = async (): Promise<WorkQueue> => {
    queues += 1;
    const queue = await createWorkQueue(sqs, {
      name: `work-${queues}`,
      maxReceiveCount: 1,
      endpoint: fauxqs.endpoint,
    });
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.queueUrl,
        Entries: bodies.map((body, index) => ({ Id: `e${index}`, MessageBody: body })),
      }),
    );
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.queueUrl,
        MessageBody: '{"id": "t-3", "policy": "ticket-routing", "state": "x"}',
        MessageAttributes: { ErrorMessage: { DataType: "String", StringValue: "endpoint timed out" } },
      }),
    );
    await receiveAll(sqs, queue.queueUrl, 0);
    assert.deepEqual(await receiveAll(sqs, queue.queueUrl, 0), [], "all moved to the DLQ");
    return queue;
  };

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

  it("lists each dead letter with its item, receive count and reason, and leaves it in the DLQ", async () => {
    const queue = await deadLettered();
    const { command, stdout, stderr } = capture();

    const code = await command.run([
      "list",
      "--queue-url",
      queue.dlqUrl,
      "--endpoint-url",
      fauxqs.endpoint,
      "--json",
    ]);

    assert.equal(code, 0, stderr());
    const letters = stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(letters.length, 4);
    const byId = new Map(letters.map((letter) => [letter.body.id, letter]));
    assert.equal(byId.get("t-1")?.body.policy, "ticket-routing");
    assert.equal(byId.get("t-1")?.body.preview, bodies[0]);
    assert.deepEqual(byId.get("ev-9")?.body.event, {
      source: "acme.monitoring",
      detailType: "Incident Opened",
    });
    assert.equal(byId.get("t-3")?.reason, "endpoint timed out");
    assert.ok(letters.every((letter) => letter.receiveCount >= 1 && typeof letter.sentAt === "string"));
    assert.equal((await receiveAll(sqs, queue.dlqUrl, 60)).length, 4, "listing consumed nothing");
  });

  it("prints a readable listing", async () => {
    const queue = await deadLettered();
    const { command, stdout } = capture();

    await command.run(["list", "--queue-url", queue.dlqUrl, "--endpoint-url", fauxqs.endpoint]);

    assert.match(stdout(), /^4 message\(s\) in /);
    assert.match(stdout(), /policy ticket-routing item t-2\n {2}received \d+ time\(s\); sent /);
    assert.match(stdout(), /reason: endpoint timed out/);
  });

  it("moves every dead letter back to the work queue unchanged, and empties the DLQ", async () => {
    const queue = await deadLettered();
    const { command, stdout, stderr } = capture();

    const code = await command.run([
      "redrive",
      "--queue-url",
      queue.dlqUrl,
      "--to",
      queue.queueUrl,
      "--endpoint-url",
      fauxqs.endpoint,
    ]);

    assert.equal(code, 0, stderr());
    assert.equal(stdout(), `moved 4 message(s) from ${queue.dlqUrl} to ${queue.queueUrl}\n`);
    const back = await receiveAll(sqs, queue.queueUrl, 60);
    assert.deepEqual(
      back.map((message) => message.Body).sort(),
      [...bodies, '{"id": "t-3", "policy": "ticket-routing", "state": "x"}'].sort(),
    );
    const withReason = back.find((message) => message.Body?.includes("t-3"));
    assert.equal(withReason?.MessageAttributes?.ErrorMessage?.StringValue, "endpoint timed out");
    assert.deepEqual(await receiveAll(sqs, queue.dlqUrl, 60), []);
  });

  it("moves at most --max messages and leaves the others visible in the DLQ", async () => {
    const queue = await deadLettered();
    const { command } = capture();

    const code = await command.run([
      "redrive",
      "--queue-url",
      queue.dlqUrl,
      "--to",
      queue.queueUrl,
      "--max",
      "3",
      "--endpoint-url",
      fauxqs.endpoint,
    ]);

    assert.equal(code, 0);
    assert.equal((await receiveAll(sqs, queue.queueUrl, 60)).length, 3);
    assert.equal((await receiveAll(sqs, queue.dlqUrl, 60)).length, 1);
  });

  it("finds the source queue without --to through the redrive policies where SQS cannot list them (fauxqs)", async () => {
    const queue = await deadLettered();
    const { command, stdout, stderr } = capture();

    const code = await command.run([
      "redrive",
      "--queue-url",
      queue.dlqUrl,
      "--endpoint-url",
      fauxqs.endpoint,
    ]);

    assert.equal(code, 0, stderr());
    assert.match(stdout(), new RegExp(`moved 4 message\\(s\\) from ${queue.dlqUrl} to ${queue.queueUrl}\n`));
    assert.equal((await receiveAll(sqs, queue.queueUrl, 60)).length, 4);
  });

  it("asks for --to when no queue's redrive policy names the DLQ", async () => {
    const queue = await deadLettered();
    const orphan = await createWorkQueue(sqs, { name: `orphan-${queues}`, endpoint: fauxqs.endpoint });
    const { command } = capture();

    await assert.rejects(
      command.run(["redrive", "--queue-url", orphan.queueUrl, "--endpoint-url", fauxqs.endpoint]),
      /no queue sends its dead letters here; name it with --to/,
    );
    await assert.rejects(
      command.run([
        "redrive",
        "--queue-url",
        queue.dlqUrl,
        "--to",
        queue.dlqUrl,
        "--endpoint-url",
        fauxqs.endpoint,
      ]),
      UsageError,
    );
    assert.equal((await receiveAll(sqs, queue.dlqUrl, 60)).length, 4);
  });
});

describe("decisions dlq --lane --up-info (fauxqs)", () => {
  let fauxqs: Fauxqs;
  let sqs: SQSClient;
  let folder: string;
  let upInfo: string;
  const lanes: Partial<Record<"interactive" | "bulk", WorkQueue>> = {};

  before(async () => {
    fauxqs = await startFauxqs();
    sqs = new SQSClient({
      endpoint: fauxqs.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      useQueueUrlAsEndpoint: false,
    });
    for (const lane of ["interactive", "bulk"] as const) {
      lanes[lane] = await createWorkQueue(sqs, {
        name: `lanes-${lane}`,
        maxReceiveCount: 1,
        endpoint: fauxqs.endpoint,
        tags: { lane },
      });
    }
    const bulk = lanes.bulk as WorkQueue;
    // Two lines of a job dead-lettered in the bulk lane.
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: bulk.queueUrl,
        Entries: ["jb-1", "jb-2"].map((id) => ({
          Id: id,
          MessageBody: JSON.stringify({ id, policy: "ticket-routing", state: "x" }),
        })),
      }),
    );
    await receiveAll(sqs, bulk.queueUrl, 0);
    assert.deepEqual(await receiveAll(sqs, bulk.queueUrl, 0), [], "all moved to the DLQ");
    folder = await mkdtemp(join(tmpdir(), "dlq-lanes-"));
    upInfo = join(folder, "up.json");
    const urls = (key: "queueUrl" | "dlqUrl") => ({
      interactive: lanes.interactive?.[key],
      bulk: lanes.bulk?.[key],
    });
    await writeFile(
      upInfo,
      `${JSON.stringify({ region: "us-east-1", sqs_endpoint: fauxqs.endpoint, queue_urls: urls("queueUrl"), dlq_urls: urls("dlqUrl") })}\n`,
    );
  });

  after(async () => {
    sqs?.destroy();
    await fauxqs?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("lists the lane's dead-letter queue and names its lane", async () => {
    const { command, stdout } = capture();
    assert.equal(await command.run(["list", "--lane", "bulk", "--up-info", upInfo]), 0);
    assert.match(stdout(), /^2 message\(s\) in \S+lanes-bulk-dlq \(the bulk lane's dead-letter queue\):/);
    const json = capture();
    assert.equal(await json.command.run(["list", "--json", "--lane", "bulk", "--up-info", upInfo]), 0);
    const letters = json
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { lane?: string });
    assert.deepEqual(
      letters.map((letter) => letter.lane),
      ["bulk", "bulk"],
    );
  });

  it("redrives the lane's dead letters to the lane they came from", async () => {
    const { command, stdout } = capture();
    assert.equal(await command.run(["redrive", "--lane", "bulk", "--up-info", upInfo]), 0);
    assert.equal(stdout(), `moved 2 message(s) from ${lanes.bulk?.dlqUrl} to ${lanes.bulk?.queueUrl}\n`);
    assert.equal((await receiveAll(sqs, lanes.bulk?.queueUrl ?? "", 60)).length, 2);
    assert.deepEqual(await receiveAll(sqs, lanes.interactive?.queueUrl ?? "", 60), []);
  });

  it("says what to give when the lane or its file is missing, or --queue-url is given too", async () => {
    const { command } = capture();
    await assert.rejects(
      command.run(["list", "--up-info", upInfo]),
      /--lane <interactive\|bulk> with --up-info/,
    );
    await assert.rejects(
      command.run(["list", "--lane", "fast", "--up-info", upInfo]),
      /--lane must be one of/,
    );
    await assert.rejects(
      command.run(["list", "--lane", "bulk", "--queue-url", lanes.bulk?.dlqUrl ?? ""]),
      /--queue-url names the dead-letter queue itself/,
    );
    await assert.rejects(
      command.run(["list", "--lane", "bulk", "--up-info", join(folder, "none.json")]),
      /decisions up > up\.json/,
    );
  });
});
