/**
 * `decisions dlq list|purge-decided` on dead letters that are copies of items already decided:
 * fauxqs's redrive policy fills the DLQ, the outcomes are in the real outcomes table on DynamoDB
 * Local, both on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { createDlqCommand } from "../../../cli/commands/dlqCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobLedger, jobsTableDefinition } from "../../../core/jobs/index.js";
import { outcomesTableDefinition, SUPERSEDE_ATTRIBUTE } from "../../../core/outcomes/index.js";
import { createWorkQueue, type WorkQueue } from "../../../local/eventSource/createWorkQueue.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../../local/services/startDynamoDbLocal.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { waitingOutcome } from "../../support/waitingOutcome.js";

const POLICY = "ticket-routing";
const DECIDED_AT = "2026-12-01T10:00:00.000Z";

function capture() {
  let out = "";
  let err = "";
  const command = createDlqCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { command, stdout: () => out, stderr: () => err };
}

/**
 * Receives until the queue answers with nothing. Bounded by progress: a message received a second
 * time means the queue can never empty this way (a visibility of 0 on a queue without a redrive
 * policy, such as a DLQ, hands the same message back for ever), so it throws instead of spinning.
 */
async function receiveAll(sqs: SQSClient, queueUrl: string, visibility: number): Promise<Message[]> {
  const messages: Message[] = [];
  const seen = new Set<string | undefined>();
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
    for (const message of output.Messages) {
      if (seen.has(message.MessageId)) {
        throw new Error(
          `receiveAll: message ${message.MessageId} came back from ${queueUrl}: with visibility ${visibility} this queue never empties (give a visibility that outlasts the loop)`,
        );
      }
      seen.add(message.MessageId);
    }
    messages.push(...output.Messages);
  }
}

/** The messages a queue holds (visible or in flight), read without receiving them. */
async function messagesIn(sqs: SQSClient, queueUrl: string): Promise<number> {
  const output = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return (
    Number(output.Attributes?.ApproximateNumberOfMessages ?? Number.NaN) +
    Number(output.Attributes?.ApproximateNumberOfMessagesNotVisible ?? Number.NaN)
  );
}

const item = (id: string) => JSON.stringify({ id, policy: POLICY, state: `ticket ${id}` });
const supersede = (marker: string) => ({
  [SUPERSEDE_ATTRIBUTE]: { DataType: "String", StringValue: marker },
});

/**
 * The dead letters of every test: two copies of d-1 (decided), d-2 (no outcome), d-3 asking to
 * replace whatever is stored (`*`), d-4 asking to replace a version no longer stored (its
 * supersede was applied), and a body that is not JSON.
 */
const LETTERS = [
  { body: item("d-1") },
  { body: item("d-1") },
  { body: item("d-2") },
  { body: item("d-3"), attributes: supersede("*") },
  { body: item("d-4"), attributes: supersede("2026-11-30T09:00:00.000Z") },
  { body: "not json" },
];
const DECIDED_BODIES = [item("d-1"), item("d-1"), item("d-4")];
const UNDECIDED_BODIES = [item("d-2"), item("d-3"), "not json"];

describe("decisions dlq on copies of decided items (fauxqs, DynamoDB Local)", () => {
  let fauxqs: Fauxqs;
  let ddbLocal: DynamoDbLocal;
  let sqs: SQSClient;
  let doc: DynamoDBDocumentClient;
  let tables = 0;
  let queues = 0;

  /** A fresh outcomes table holding the outcomes of d-1, d-3 and d-4. */
  const outcomesTable = async (): Promise<string> => {
    tables += 1;
    const table = `outcomes-${tables}`;
    await doc.send(new CreateTableCommand(outcomesTableDefinition(table)));
    for (const id of ["d-1", "d-3", "d-4"]) {
      await doc.send(new PutCommand({ TableName: table, Item: waitingOutcome(POLICY, id, DECIDED_AT) }));
    }
    return table;
  };

  /** A work queue whose messages were received without a delete until SQS moved them to the DLQ. */
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
        Entries: LETTERS.map((letter, index) => ({
          Id: `e${index}`,
          MessageBody: letter.body,
          ...(letter.attributes ? { MessageAttributes: letter.attributes } : {}),
        })),
      }),
    );
    await receiveAll(sqs, queue.queueUrl, 0);
    assert.deepEqual(await receiveAll(sqs, queue.queueUrl, 0), [], "all moved to the DLQ");
    return queue;
  };

  const endpoints = (table: string) => [
    "--endpoint-url",
    fauxqs.endpoint,
    "--dynamodb-endpoint-url",
    ddbLocal.endpoint,
    "--table",
    table,
  ];

  before(async () => {
    [fauxqs, ddbLocal] = await Promise.all([startFauxqs(), startDynamoDbLocal({ env: process.env })]);
    sqs = new SQSClient({
      endpoint: fauxqs.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      useQueueUrlAsEndpoint: false,
    });
    doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: ddbLocal.endpoint,
        region: "us-east-1",
        credentials: LOCAL_CREDENTIALS,
      }),
    );
  });

  after(async () => {
    sqs?.destroy();
    doc?.destroy();
    await Promise.all([fauxqs?.stop(), ddbLocal?.stop()]);
  });

  it("labels a dead letter whose item's outcome is stored as an already-decided copy, and no other", async () => {
    const [table, queue] = await Promise.all([outcomesTable(), deadLettered()]);
    const json = capture();
    const text = capture();

    const code = await json.command.run(["list", "--queue-url", queue.dlqUrl, ...endpoints(table), "--json"]);
    await text.command.run(["list", "--queue-url", queue.dlqUrl, ...endpoints(table)]);

    assert.equal(code, 0, json.stderr());
    assert.equal(json.stderr(), "");
    const letters = json
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(letters.length, LETTERS.length);
    assert.deepEqual(
      letters
        .filter((letter) => letter.decided !== undefined)
        .map((letter) => letter.body.preview)
        .sort(),
      [...DECIDED_BODIES].sort(),
    );
    const first = letters.find((letter) => letter.body.id === "d-1");
    assert.deepEqual(first.decided, { status: "fallback", updatedAt: DECIDED_AT });
    const listing = text.stdout();
    assert.equal(listing.match(/already decided \(a duplicate copy\): safe to purge/g)?.length, 3);
    assert.match(
      listing,
      /item d-1\n.*\n {2}already decided \(a duplicate copy\): safe to purge \(dlq purge-decided\); outcome fallback, updated 2026-12-01T10:00:00.000Z\n/,
    );
    assert.match(listing, /item d-2\n.*\n {2}reason: none recorded \(no failure record/);
    assert.doesNotMatch(listing, /item d-1\n.*\n.*no failure record/);
  });

  it("purges only the copies of decided items and leaves every letter whose outcome is absent or that asks to replace it", async () => {
    const [table, queue] = await Promise.all([outcomesTable(), deadLettered()]);
    const { command, stdout, stderr } = capture();

    const code = await command.run(["purge-decided", "--queue-url", queue.dlqUrl, ...endpoints(table)]);

    assert.equal(code, 0, stderr());
    assert.equal(
      stdout(),
      `purged 3 already-decided message(s) from ${queue.dlqUrl}; 3 left (no outcome stored, a supersede, no item, or a job's end depends on it)\n`,
    );
    const left = await receiveAll(sqs, queue.dlqUrl, 60);
    assert.deepEqual(left.map((message) => message.Body).sort(), [...UNDECIDED_BODIES].sort());
  });

  it("keeps a decided job line while its job's end check is outstanding, and purges it once the job has ended", async () => {
    // A job of one line, counted, whose writer stopped before its end check (the check is a no-op here).
    const table = await outcomesTable();
    const jobsTable = `jobs-${tables}`;
    await doc.send(new CreateTableCommand(jobsTableDefinition(jobsTable)));
    const deadline = () => ({ deadline: new Deadline(Date.now() + 30_000) });
    const ledger = new JobLedger({ client: doc, jobsTable, retry: new RetryPolicy({ maxAttempts: 3 }) });
    const stopped = new (class extends JobLedger {
      override async checkEnded(): Promise<void> {}
    })({ client: doc, jobsTable, retry: new RetryPolicy({ maxAttempts: 3 }) });
    const { job } = await stopped.start({ bucket: "b", key: "one.jsonl", versionId: "v1" }, deadline());
    await stopped.markRead(job.job_id, 1, deadline());
    await stopped.recordDeadLettered(
      job.job_id,
      { line: 1, id: "d-1", policy: POLICY, status: "dead_lettered", reason: "x" },
      deadline(),
    );
    queues += 1;
    const queue = await createWorkQueue(sqs, {
      name: `work-${queues}`,
      maxReceiveCount: 1,
      endpoint: fauxqs.endpoint,
    });
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.queueUrl,
        Entries: [
          {
            Id: "line",
            MessageBody: item("d-1"),
            MessageAttributes: {
              "decisions.job_id": { DataType: "String", StringValue: job.job_id },
              "decisions.job_line": { DataType: "Number", StringValue: "1" },
            },
          },
        ],
      }),
    );
    await receiveAll(sqs, queue.queueUrl, 0);
    const withJobs = [...endpoints(table), "--jobs-table", jobsTable];

    const listed = capture();
    await listed.command.run(["list", "--queue-url", queue.dlqUrl, ...withJobs]);
    const unread = capture();
    await unread.command.run(["list", "--queue-url", queue.dlqUrl, ...endpoints(table)]);
    const purge = capture();
    await purge.command.run(["purge-decided", "--queue-url", queue.dlqUrl, ...withJobs]);

    assert.match(
      listed.stdout(),
      /already decided \(outcome fallback, updated .*\), but not safe to purge yet: line 1 of job job-\w+, whose lines have all ended but whose end check has not run/,
    );
    assert.doesNotMatch(listed.stdout(), /safe to purge \(dlq purge-decided\)/);
    assert.match(
      unread.stdout(),
      /not safe to purge yet: line 1 of job job-\w+, whose job was not read \(give the jobs table: --jobs-table\)/,
    );
    assert.match(purge.stdout(), /purged 0 already-decided message\(s\).*; 1 left/);
    assert.equal(await messagesIn(sqs, queue.dlqUrl), 1, "kept");

    // The end check runs (the jobs monitor's): the copy is safe to purge now.
    await ledger.checkEnded(job.job_id, deadline());
    const after = capture();
    await after.command.run(["purge-decided", "--queue-url", queue.dlqUrl, ...withJobs]);
    assert.match(after.stdout(), /purged 1 already-decided message\(s\)/);
  });

  it("deletes nothing when the outcomes cannot be read", async () => {
    const queue = await deadLettered();
    const { command } = capture();

    await assert.rejects(
      command.run(["purge-decided", "--queue-url", queue.dlqUrl, "--endpoint-url", fauxqs.endpoint]),
      UsageError,
    );
    await assert.rejects(
      command.run(["purge-decided", "--queue-url", queue.dlqUrl, ...endpoints("no-such-table")]),
      /no-such-table/,
    );

    assert.equal((await receiveAll(sqs, queue.dlqUrl, 60)).length, LETTERS.length);
  });
});
