/**
 * Deliveries on `decisions up` itself (the process a user starts, on the generated demo model):
 * items put on the interactive queue after up is ready are decided, and each outcome reaches the
 * policy's `deliver:` receiver on 127.0.0.1, signed. On DynamoDB Local the stream's first record
 * after up's start lands past the position the reader took at its start, which DynamoDB Local
 * answers with TrimmedDataAccessException; a reader that keeps that position never delivers.
 */
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { Webhook } from "standardwebhooks";
import type { DeliveryPayload } from "../../../contract/delivery/DeliveryPayloadSchema.js";
import { startUpProcess, type UpProcess } from "../../support/startUpProcess.js";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../support/startWebhookReceiver.js";

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;
const SECRET = `whsec_${Buffer.alloc(32, 11).toString("base64")}`;
const credentials = { accessKeyId: "local", secretAccessKey: "local" };

describe("deliveries on decisions up (integration)", { timeout: 600_000 }, () => {
  let up: UpProcess;
  let folder: string;
  let receiver: WebhookReceiver | undefined;
  let got: ReceivedRequest[] = [];

  before(async () => {
    receiver = await startWebhookReceiver(() => 204);
    const { port } = receiver;
    got = receiver.got;
    folder = await mkdtemp(join(tmpdir(), "up-deliveries-"));
    await cp(join(REPO_ROOT, "policies"), folder, { recursive: true });
    const shipped = await readFile(join(folder, "ticket-routing.yaml"), "utf8");
    await writeFile(
      join(folder, "ticket-routing.yaml"),
      `${shipped}\ndeliver:\n  - name: helpdesk\n    url: http://127.0.0.1:${port}/hooks\n    secret: env:UP_DELIVERIES_SECRET\n    on: [decided, fallback, overridden, rejected, reviewed]\n`,
    );
    up = await startUpProcess(["--threads", "2", "--policies", folder], { UP_DELIVERIES_SECRET: SECRET });
  });

  after(async () => {
    if (up !== undefined) {
      up.child.kill("SIGTERM");
      await new Promise((resolve) => up.child.once("exit", resolve));
    }
    await receiver?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("delivers each outcome of items queued after up is ready, signed", async () => {
    const ticket = JSON.parse(
      (await readFile(join(REPO_ROOT, "events/work-items/tickets.jsonl"), "utf8")).split("\n")[0] ?? "",
    ) as Record<string, unknown>;
    const sqs = new SQSClient({ region: up.info.region, endpoint: up.info.sqs_endpoint, credentials });
    const ids = ["UD-1", "UD-2"];
    try {
      for (const id of ids)
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: up.info.queue_url,
            MessageBody: JSON.stringify({ ...ticket, id, policy: "ticket-routing" }),
          }),
        );
    } finally {
      sqs.destroy();
    }
    // Bounded by progress: fails when up reports the stream unreadable, or nothing new for 60 s.
    let seen = -1;
    let since = Date.now();
    while (got.length < ids.length) {
      assert.doesNotMatch(up.stderr(), /reading the outcomes stream failed/);
      const progress = got.length + up.stderr().length;
      if (progress !== seen) {
        seen = progress;
        since = Date.now();
      } else if (Date.now() - since > 60_000)
        assert.fail(`no delivery for 60 s; up's stderr:\n${up.stderr().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const webhook = new Webhook(SECRET);
    const payloads = got.map(
      ({ headers, body }) => webhook.verify(body, headers) as unknown as DeliveryPayload,
    );
    assert.deepEqual(payloads.map((payload) => payload.id).sort(), ids);
    assert.doesNotMatch(up.stderr(), /reading the outcomes stream failed/);
  });
});
