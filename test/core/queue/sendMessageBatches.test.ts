import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SendMessageBatchCommand, SendMessageBatchCommandOutput, SQSClient } from "@aws-sdk/client-sqs";
import { sendMessageBatches } from "../../../core/queue/index.js";

type Answer = (
  entries: { Id: string; MessageBody: string }[],
  call: number,
) => Partial<SendMessageBatchCommandOutput>;

/** A fake SQS client that answers SendMessageBatch with `answer` and records every call's bodies. */
function fakeSqs(answer: Answer): { sqs: Pick<SQSClient, "send">; calls: string[][] } {
  const calls: string[][] = [];
  const sqs = {
    send: async (command: SendMessageBatchCommand) => {
      const entries = (command.input.Entries ?? []) as { Id: string; MessageBody: string }[];
      calls.push(entries.map((entry) => entry.MessageBody));
      return answer(entries, calls.length);
    },
  } as unknown as Pick<SQSClient, "send">;
  return { sqs, calls };
}

const allSucceed: Answer = (entries) => ({
  Successful: entries.map((entry) => ({
    Id: entry.Id,
    MessageId: `id-${entry.MessageBody}`,
    MD5OfMessageBody: "",
  })),
});
const noWait = { sleep: async () => {}, random: () => 0 };

describe("sendMessageBatches", () => {
  it("sends at most 10 entries per call, in order, bodies unchanged", async () => {
    const { sqs, calls } = fakeSqs(allSucceed);
    const bodies = Array.from({ length: 23 }, (_, index) => `{"n": ${index}.0}`);

    const results = await sendMessageBatches(
      sqs,
      "q",
      bodies.map((body) => ({ body })),
      noWait,
    );

    assert.deepEqual(
      calls.map((call) => call.length),
      [10, 10, 3],
    );
    assert.deepEqual(calls.flat(), bodies);
    assert.ok(results.every((result) => result.ok && result.attempts === 1));
  });

  it("starts a new call before the payload would pass the byte limit", async () => {
    const { sqs, calls } = fakeSqs(allSucceed);

    await sendMessageBatches(
      sqs,
      "q",
      ["aaaa", "bbbb", "cccc"].map((body) => ({ body })),
      {
        ...noWait,
        maxBatchBytes: 8,
      },
    );

    assert.deepEqual(calls, [["aaaa", "bbbb"], ["cccc"]]);
  });

  it("sends again only the entries SQS failed on its side, and reports sender faults at once", async () => {
    const { sqs, calls } = fakeSqs((entries, call) => ({
      Successful: entries
        .filter((entry) => !(call === 1 && entry.MessageBody !== "ok"))
        .map((entry) => ({ Id: entry.Id, MessageId: `id-${entry.MessageBody}`, MD5OfMessageBody: "" })),
      Failed: entries
        .filter((entry) => call === 1 && entry.MessageBody !== "ok")
        .map((entry) => ({
          Id: entry.Id,
          Code: entry.MessageBody === "bad" ? "InvalidMessageContents" : "InternalError",
          Message: "no",
          SenderFault: entry.MessageBody === "bad",
        })),
    }));

    const results = await sendMessageBatches(
      sqs,
      "q",
      ["ok", "busy", "bad"].map((body) => ({ body })),
      noWait,
    );

    assert.deepEqual(calls, [["ok", "busy", "bad"], ["busy"]]);
    assert.deepEqual(results, [
      { ok: true, messageId: "id-ok", attempts: 1 },
      { ok: true, messageId: "id-busy", attempts: 2 },
      { ok: false, code: "InvalidMessageContents", message: "no", senderFault: true, attempts: 1 },
    ]);
  });

  it("gives up on a retryable entry after maxAttempts", async () => {
    const { sqs, calls } = fakeSqs((entries) => ({
      Failed: entries.map((entry) => ({
        Id: entry.Id,
        Code: "InternalError",
        Message: "down",
        SenderFault: false,
      })),
    }));

    const [result] = await sendMessageBatches(sqs, "q", [{ body: "x" }], { ...noWait, maxAttempts: 3 });

    assert.equal(calls.length, 3);
    assert.deepEqual(result, {
      ok: false,
      code: "InternalError",
      message: "down",
      senderFault: false,
      attempts: 3,
    });
  });

  it("stops at a call that fails as a whole and sends nothing after it", async () => {
    const { sqs, calls } = fakeSqs(() => {
      throw Object.assign(new Error("The specified queue does not exist."), {
        name: "QueueDoesNotExist",
        $fault: "client",
      });
    });
    const bodies = Array.from({ length: 12 }, (_, index) => ({ body: String(index) }));

    const results = await sendMessageBatches(sqs, "q", bodies, noWait);

    assert.equal(calls.length, 1);
    assert.deepEqual(results[0], {
      ok: false,
      code: "QueueDoesNotExist",
      message: "The specified queue does not exist.",
      senderFault: true,
      attempts: 1,
    });
    assert.equal(results[11]?.ok === false && results[11].code, "NotAttempted");
  });
});
