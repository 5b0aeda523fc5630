/**
 * `decisions deliveries redrive` with a --target or --ids that no failure in the DLQ matches says
 * so and exits 1, rather than "0 of 0 delivered" with exit 0 (a misspelt target looked redriven).
 * On a real fauxqs queue.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateQueueCommand, SQSClient } from "@aws-sdk/client-sqs";
import { createDeliveriesCommand } from "../../../cli/commands/deliveriesCommand.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };

describe("decisions deliveries redrive: a selection that matches nothing", () => {
  let fauxqs: Fauxqs;
  let queueUrl: string;

  before(async () => {
    fauxqs = await startFauxqs();
    const sqs = new SQSClient({ region: fauxqs.region, endpoint: fauxqs.endpoint, credentials });
    try {
      const created = await sqs.send(new CreateQueueCommand({ QueueName: "deliveries-dlq" }));
      queueUrl = new URL(new URL(created.QueueUrl ?? "").pathname, fauxqs.endpoint).href;
    } finally {
      sqs.destroy();
    }
  });

  after(async () => {
    await fauxqs?.stop();
  });

  it("says that nothing matched and exits 1", async () => {
    for (const selection of [
      ["--target", "ticket-routing/helpdsek"],
      ["--ids", "NO-SUCH-ID"],
    ]) {
      const out: string[] = [];
      const err: string[] = [];
      const redrive = createDeliveriesCommand({
        stdout: { write: (text: string) => out.push(text) > 0 },
        stderr: { write: (text: string) => err.push(text) > 0 },
        env: {},
      });
      const code = await redrive.run([
        "redrive",
        "--queue-url",
        queueUrl,
        "--endpoint-url",
        fauxqs.endpoint,
        "--region",
        fauxqs.region,
        ...selection,
      ]);
      assert.equal(code, 1, selection.join(" "));
      assert.match(err.join(""), new RegExp(`no failed delivery .*matches ${selection[0]}`));
    }
  });
});
