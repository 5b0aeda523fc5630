/**
 * The local SageMaker gateway's concurrency limit counts invocations, not body reads: a client that
 * sends headers and a byte of its body and then stalls holds no place (issue 30, #4).
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { startSageMakerGateway } from "../../../local/services/startSageMakerGateway.js";
import { openSlowSenders } from "../../adapter/server/slowSenders.js";

describe("startSageMakerGateway with a concurrency limit and slow senders", () => {
  it("forwards an invocation while a sender that stalled after one body byte is connected", async () => {
    const container = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.end('{"ok":true}'));
    });
    await new Promise<void>((resolve) => container.listen(0, "127.0.0.1", resolve));
    const adapterUrl = `http://127.0.0.1:${(container.address() as AddressInfo).port}`;
    const gateway = await startSageMakerGateway({
      endpoints: { decisions: adapterUrl },
      maxConcurrentInvocations: 1,
    });
    try {
      const slow = await openSlowSenders(gateway.port, 1, "/endpoints/decisions/invocations");
      // A round trip after the slow sender: the gateway has taken its headers in by now.
      assert.equal((await fetch(`${gateway.url}/`, { method: "GET" })).status, 404);

      const answer = await fetch(`${gateway.url}/endpoints/decisions/invocations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });

      assert.equal(answer.status, 200, await answer.clone().text());
      assert.deepEqual(await answer.json(), { ok: true });
      assert.equal(slow.closed(), 0);
      slow.destroy();
    } finally {
      await gateway.stop();
      await new Promise<void>((resolve) => container.close(() => resolve()));
    }
  });
});
