/**
 * `decisions up` as a user runs it: a process that prints one JSON line once ready, serves the
 * pipeline until SIGINT, then stops everything and exits 0. Every server it starts listens on
 * 127.0.0.1 only (issue 11, "Security"): the listening TCP sockets of the `up` process and of every
 * process below it (DynamoDB Local's JVM, the adapter) are read from /proc while the stack runs (on
 * this file's one `up` process, rather than on one of its own).
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { DynamoDBClient, GetItemCommand, QueryCommand } from "@aws-sdk/client-dynamodb";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { listeningSockets } from "../../local/listeningSockets.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;
const run = promisify(execFile);

/** Runs `decisions <args>` from the sources as a user would run it in a second terminal. */
async function decisions(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ["--import", "tsx", "test/adapter/server/runCli.fixture.ts", ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
}

const LOOPBACK_V6_MAPPED = "0000000000000000FFFF00000100007F";

/** `pid` and every process below it, from the parent ids in /proc/<pid>/stat. */
async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[1] !== undefined) parents.set(Number(entry), Number(fields[1]));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

describe("decisions up (integration)", () => {
  let child: ChildProcess;
  let info: Record<string, string>;
  let up: UpProcess;

  before(async () => {
    up = await startUpProcess();
    ({ child, info } = up);
  });

  after(async () => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  });

  it("prints every key a client needs, each endpoint on 127.0.0.1", () => {
    for (const key of [
      "sqs_endpoint",
      "queue_url",
      "dlq_url",
      "dynamodb_endpoint",
      "s3_endpoint",
      "gateway_url",
      "adapter_url",
    ]) {
      assert.match(info[key] ?? "", /^http:\/\/127\.0\.0\.1:\d+/, key);
    }
    for (const key of ["region", "table", "bucket", "endpoint_name"]) assert.ok(info[key], key);
    assert.match(up.stderr(), /weights are random/);
  });

  it("listens on 127.0.0.1 in every process it started, on each endpoint it printed", async () => {
    const pids = await processTree(child.pid ?? 0);
    const sockets = (await Promise.all(pids.map((pid) => listeningSockets(pid).catch(() => [])))).flat();

    assert.ok(pids.length >= 3, `expected up, DynamoDB Local and the adapter: ${pids.join(", ")}`);
    const wide = sockets.filter(
      (socket) => socket.address !== "127.0.0.1" && socket.address !== LOOPBACK_V6_MAPPED,
    );
    assert.deepEqual(wide, [], `sockets not on loopback: ${JSON.stringify(wide)}`);
    const ports = new Set(sockets.map((socket) => socket.port));
    for (const key of ["sqs_endpoint", "dynamodb_endpoint", "s3_endpoint", "gateway_url", "adapter_url"]) {
      const port = Number(new URL(info[key] ?? "http://x:0").port);
      assert.ok(
        ports.has(port),
        `${key} (${info[key]}) is not among the listening ports ${[...ports].join(", ")}`,
      );
    }
  });

  it("decides an item a plain SDK client sends, readable from the review index", {
    timeout: 120_000,
  }, async () => {
    const sqs = new SQSClient({ region: info.region, credentials: LOCAL_CREDENTIALS });
    const dynamodb = new DynamoDBClient({
      region: info.region,
      endpoint: info.dynamodb_endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      const item = {
        id: "up-1",
        policy: "ticket-routing",
        state: { subject: "Charged twice", body: "My card was charged twice for the March invoice." },
        facts: { customer_tier: "pro" },
      };
      // The queue URL alone routes the request: no endpoint configured on the client.
      await sqs.send(new SendMessageCommand({ QueueUrl: info.queue_url, MessageBody: JSON.stringify(item) }));
      let statuses: string[] = [];
      while (statuses.length === 0) {
        for (const status of ["decided", "fallback", "overridden", "rejected"]) {
          const page = await dynamodb.send(
            new QueryCommand({
              TableName: info.table,
              IndexName: "by-status",
              KeyConditionExpression: "policy_status = :key",
              ExpressionAttributeValues: { ":key": { S: `ticket-routing#${status}` } },
            }),
          );
          if ((page.Items ?? []).some((found) => found.id?.S === "up-1")) statuses = [status];
        }
        if (statuses.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.notEqual(statuses[0], "rejected");
    } finally {
      sqs.destroy();
      dynamodb.destroy();
    }
  });

  /** Resolves once the outcomes table holds an outcome of ticket-routing for each of `ids`. */
  async function untilStored(ids: readonly string[]): Promise<void> {
    const dynamodb = new DynamoDBClient({
      region: info.region,
      endpoint: info.dynamodb_endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      const waiting = new Set(ids);
      while (waiting.size > 0) {
        for (const id of [...waiting]) {
          const found = await dynamodb.send(
            new GetItemCommand({
              TableName: info.table,
              Key: { policy: { S: "ticket-routing" }, id: { S: id } },
            }),
          );
          if (found.Item !== undefined) waiting.delete(id);
        }
        if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      dynamodb.destroy();
    }
  }

  it("decides what `decisions submit` sends, listed by `decisions outcomes list`", {
    timeout: 180_000,
  }, async () => {
    const folder = await mkdtemp(join(tmpdir(), "up-submit-"));
    try {
      const ids = ["up-submit-1", "up-submit-2", "up-submit-3"];
      const lines = ids.map((id, index) =>
        JSON.stringify({
          id,
          policy: "ticket-routing",
          state: { subject: `Order ${index}`, body: "Where is my parcel? It is a week late." },
          facts: { customer_tier: "business" },
        }),
      );
      const items = join(folder, "items.jsonl");
      await writeFile(items, `${lines.join("\n")}\n`);

      const sent = await decisions(
        "submit",
        items,
        "--queue-url",
        String(info.queue_url),
        "--endpoint-url",
        String(info.sqs_endpoint),
      );
      assert.match(sent.stdout, /^sent 3 of 3 message\(s\) to /);

      // Waits on the table itself (a cheap SDK read), then lists once: a `decisions` process per
      // poll cost more than the pipeline it waited for.
      await untilStored(ids);
      const table = ["--table", String(info.table), "--endpoint-url", String(info.dynamodb_endpoint)];
      const { stdout } = await decisions(
        "outcomes",
        "list",
        "--policy",
        "ticket-routing",
        "--json",
        ...table,
      );
      const listed = stdout
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as { id: string; status: string });
      for (const id of ids) {
        const outcome = listed.find((found) => found.id === id);
        assert.ok(outcome && ["decided", "fallback", "overridden"].includes(outcome.status), id);
      }
      const shown = await decisions("outcomes", "show", ids[0] ?? "", "--policy", "ticket-routing", ...table);
      assert.match(shown.stdout, /up-submit-1/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("stops everything and exits 0 on SIGINT", { timeout: 60_000 }, async () => {
    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    assert.equal(code, 0, up.stderr());
    assert.match(up.stderr(), /SIGINT: stopping/);
    await assert.rejects(
      fetch(String(info.dynamodb_endpoint)),
      (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED",
    );
    await assert.rejects(
      fetch(`${info.adapter_url}/ping`),
      (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED",
    );
  });
});
