/** `decisions submit` against fauxqs on 127.0.0.1, with real SQS clients. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CreateQueueCommand, type Message, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { createSubmitCommand } from "../../../cli/commands/submitCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";

function capture() {
  let out = "";
  let err = "";
  const command = createSubmitCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { command, stdout: () => out, stderr: () => err };
}

async function drain(sqs: SQSClient, queueUrl: string): Promise<Message[]> {
  const messages: Message[] = [];
  for (;;) {
    const output = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (!output.Messages?.length) return messages;
    messages.push(...output.Messages);
  }
}

describe("decisions submit (fauxqs)", () => {
  let fauxqs: Fauxqs;
  let sqs: SQSClient;
  let dir: string;
  let queues = 0;

  const newQueue = async (): Promise<string> => {
    queues += 1;
    const created = await sqs.send(new CreateQueueCommand({ QueueName: `submit-${queues}` }));
    return new URL(new URL(created.QueueUrl ?? "").pathname, fauxqs.endpoint).href;
  };

  before(async () => {
    fauxqs = await startFauxqs();
    sqs = new SQSClient({
      endpoint: fauxqs.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      useQueueUrlAsEndpoint: false,
    });
    dir = await mkdtemp(join(tmpdir(), "submit-"));
  });

  after(async () => {
    sqs?.destroy();
    await fauxqs?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("sends every line of a JSONL file exactly as written", async () => {
    const queueUrl = await newQueue();
    const lines = Array.from(
      { length: 23 },
      (_, index) =>
        `{"id": "t-${index}", "policy": "ticket-routing", "state": {"2024": ${index}, "score": 2.0}}`,
    );
    const file = join(dir, "items.jsonl");
    await writeFile(file, `${lines.join("\n")}\n`);
    const { command, stdout, stderr } = capture();

    const code = await command.run([file, "--queue-url", queueUrl, "--endpoint-url", fauxqs.endpoint]);

    assert.equal(code, 0, stderr());
    assert.equal(stdout(), `sent 23 of 23 message(s) to ${queueUrl}\n`);
    const bodies = (await drain(sqs, queueUrl)).map((message) => message.Body);
    assert.deepEqual([...bodies].sort(), [...lines].sort());
  });

  it("reports a line that is not JSON with its number, sends the rest, and exits 1", async () => {
    const queueUrl = await newQueue();
    const file = join(dir, "mixed.jsonl");
    await writeFile(
      file,
      '{"id": "a", "policy": "p", "state": "x"}\n{"id": "b", oops}\n{"id": "c", "policy": "p", "state": "y"}\n',
    );
    const { command, stdout, stderr } = capture();

    const code = await command.run([file, "--queue-url", queueUrl, "--endpoint-url", fauxqs.endpoint]);

    assert.equal(code, 1);
    assert.match(stderr(), /^line 2: InvalidJson: not valid JSON: .* at column \d+\n$/);
    assert.equal(stdout(), `sent 2 of 3 message(s) to ${queueUrl}; 1 failed\n`);
    assert.equal((await drain(sqs, queueUrl)).length, 2);
  });

  it("sends a .json EventBridge event as one message, as written", async () => {
    const queueUrl = await newQueue();
    const event =
      '{\n  "version": "0",\n  "id": "ev-1",\n  "detail-type": "Incident Opened",\n  "source": "acme.monitoring",\n  "detail": {"severity": 2.0}\n}';
    const file = join(dir, "event.json");
    await writeFile(file, `${event}\n`);
    const { command, stderr } = capture();

    const code = await command.run([file, "--queue-url", queueUrl, "--endpoint-url", fauxqs.endpoint]);

    assert.equal(code, 0, stderr());
    assert.deepEqual(
      (await drain(sqs, queueUrl)).map((message) => message.Body),
      [event],
    );
  });

  it("reports every entry, and exits 1, when the queue does not exist", async () => {
    const file = join(dir, "two.jsonl");
    await writeFile(file, '{"id": "a"}\n{"id": "b"}\n');
    const { command, stderr } = capture();

    const code = await command.run([
      file,
      "--queue-url",
      `${fauxqs.endpoint}/000000000000/no-such-queue`,
      "--endpoint-url",
      fauxqs.endpoint,
    ]);

    assert.equal(code, 1);
    const lines = stderr().trim().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[0] ?? "", /^line 1 \(id a\): .*QueueDoesNotExist/);
  });

  it("refuses to run without a queue URL or an input file", async () => {
    const { command } = capture();

    await assert.rejects(command.run(["items.jsonl"]), UsageError);
    await assert.rejects(command.run(["--queue-url", "http://127.0.0.1:1/q"]), UsageError);
  });

  it("with --up-info sends each item to its lane: --lane, else its policy's declared lane, else interactive", async () => {
    // prepare: up's line naming two lane queues; a policies folder where ticket-routing declares bulk
    const queueUrls = { interactive: await newQueue(), bulk: await newQueue() };
    const upInfo = join(dir, "up.json");
    await writeFile(
      upInfo,
      `${JSON.stringify({ region: "us-east-1", sqs_endpoint: fauxqs.endpoint, queue_urls: queueUrls, dlq_urls: queueUrls })}\n`,
    );
    const policies = join(dir, "policies");
    await mkdir(policies);
    for (const name of ["ticket-routing", "incident-priority"]) {
      const text = await readFile(join("policies", `${name}.yaml`), "utf8");
      await writeFile(
        join(policies, `${name}.yaml`),
        name === "ticket-routing" ? `${text}\nlane: bulk\n` : text,
      );
    }
    const items = join(dir, "lanes.jsonl");
    await writeFile(
      items,
      [
        '{"id": "t-1", "policy": "ticket-routing", "state": "x"}',
        '{"id": "i-1", "policy": "incident-priority", "state": "y"}',
        '{"version": "0", "id": "ev-1", "detail-type": "Incident Opened", "source": "acme.monitoring", "detail": {}}',
      ].join("\n"),
    );

    // act: by the policies' lanes, then all to one lane with --lane
    const byPolicy = capture();
    const code = await byPolicy.command.run([items, "--up-info", upInfo, "--policies", policies]);
    const bulkByPolicy = (await drain(sqs, queueUrls.bulk)).map(
      (message) => JSON.parse(message.Body ?? "").id,
    );
    const interactiveByPolicy = (await drain(sqs, queueUrls.interactive)).map(
      (message) => JSON.parse(message.Body ?? "").id,
    );
    const forced = capture();
    const forcedCode = await forced.command.run([items, "--up-info", upInfo, "--lane", "bulk"]);
    const bulkForced = await drain(sqs, queueUrls.bulk);

    // assert
    assert.equal(code, 0, byPolicy.stderr());
    assert.deepEqual(bulkByPolicy, ["t-1"]);
    assert.deepEqual(interactiveByPolicy.sort(), ["ev-1", "i-1"]);
    assert.match(
      byPolicy.stdout(),
      /sent 3 of 3 message\(s\) to 1 to the bulk lane .*2 to the interactive lane|sent 3 of 3 message\(s\) to 2 to the interactive lane .*1 to the bulk lane/,
    );
    assert.equal(forcedCode, 0, forced.stderr());
    assert.equal(bulkForced.length, 3);
  });

  it("says what to give for a lane: --up-info, never --lane beside --queue-url, a lane's name", async () => {
    const { command } = capture();

    await assert.rejects(
      command.run(["items.jsonl", "--lane", "bulk"]),
      /--up-info <file> holding decisions up's JSON line/,
    );
    await assert.rejects(
      command.run(["items.jsonl", "--lane", "bulk", "--queue-url", "http://127.0.0.1:1/q"]),
      /--queue-url names the queue itself/,
    );
    await assert.rejects(
      command.run(["items.jsonl", "--lane", "fast", "--up-info", join(dir, "up.json")]),
      /--lane must be one of interactive, bulk/,
    );
    await assert.rejects(
      command.run(["items.jsonl", "--up-info", join(dir, "missing.json")]),
      /decisions up > up\.json/,
    );
  });
});
