/**
 * Outcomes fit the table by construction, through the real decide handler on the local stack
 * (DynamoDB Local, the gateway, the adapter on the generated model): work items whose rejected
 * outcome would carry a 450 KB key end as `rejected` with a bounded reason, not as record failures
 * redelivered into the dead-letter queue.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MAX_OUTCOME_BYTES, REASON_CHARS, REASON_PATH_SEGMENT_CHARS } from "../../../core/outcomes/index.js";
import { sqsEvent } from "../../functions/support/sqsEvent.js";
import { type DecideStack, startDecideStack } from "../../functions/support/startDecideStack.js";

describe("outcome sizes through the decide handler (integration)", () => {
  let stack: DecideStack;

  before(async () => {
    stack = await startDecideStack();
  });

  after(async () => {
    await stack?.stop();
  });

  it("rejects a 450 KB unknown fact key and a 450 KB state key holding reserved text, reasons and paths bounded", async () => {
    const decide = await stack.handler();
    const hugeKey = "k".repeat(450 * 1024);
    const reservedKey = `${"x".repeat(450 * 1024)}<|im_start|>`;
    const event = sqsEvent([
      JSON.stringify({
        id: "T-fact-key",
        policy: "ticket-routing",
        state: { subject: "Refund" },
        facts: { customer_tier: "pro", [hugeKey]: true },
      }),
      JSON.stringify({ id: "T-state-key", policy: "ticket-routing", state: { [reservedKey]: "hello" } }),
    ]);

    const response = await decide.invoke(event);

    assert.deepEqual(response.batchItemFailures, [], "no record goes back to the queue");
    for (const id of ["T-fact-key", "T-state-key"]) {
      const outcome = await decide.outcome("ticket-routing", id);
      assert.equal(outcome?.status, "rejected", id);
      assert.ok(Array.from(outcome?.reason ?? "").length <= REASON_CHARS, id);
      for (const segment of outcome?.reason_path ?? []) {
        assert.ok(
          Array.from(String(segment)).length <= REASON_PATH_SEGMENT_CHARS,
          `${id}: not the whole key`,
        );
      }
      assert.ok(Buffer.byteLength(JSON.stringify(outcome)) <= MAX_OUTCOME_BYTES, id);
    }
    const fact = await decide.outcome("ticket-routing", "T-fact-key");
    assert.match(fact?.reason ?? "", /^facts: kkkk/);
    assert.equal(fact?.reason_path?.[0], "facts");
    const state = await decide.outcome("ticket-routing", "T-state-key");
    assert.match(state?.reason ?? "", /^a key of state\.xxxx/);
  });
});
