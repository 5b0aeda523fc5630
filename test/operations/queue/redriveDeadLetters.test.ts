import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { redriveDeadLetters } from "../../../operations/queue/redriveDeadLetters.js";

/** A fake SQS holding two dead letters; SendMessageBatch refuses the body "poison" for good. */
function fakeSqs() {
  const calls: { name: string; input: Record<string, unknown> }[] = [];
  let received = false;
  const sqs = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      calls.push({ name, input: command.input });
      switch (name) {
        case "ReceiveMessageCommand": {
          if (received) return { Messages: [] };
          received = true;
          return {
            Messages: ["good", "poison"].map((body) => ({
              MessageId: `id-${body}`,
              ReceiptHandle: `rh-${body}`,
              Body: body,
              Attributes: { ApproximateReceiveCount: "6" },
            })),
          };
        }
        case "SendMessageBatchCommand": {
          const entries = command.input.Entries as { Id: string; MessageBody: string }[];
          return {
            Successful: entries
              .filter((entry) => entry.MessageBody !== "poison")
              .map((entry) => ({ Id: entry.Id, MessageId: `new-${entry.MessageBody}` })),
            Failed: entries
              .filter((entry) => entry.MessageBody === "poison")
              .map((entry) => ({
                Id: entry.Id,
                Code: "InvalidMessageContents",
                SenderFault: true,
                Message: "no",
              })),
          };
        }
        case "DeleteMessageBatchCommand":
        case "ChangeMessageVisibilityBatchCommand":
          return { Successful: [], Failed: [] };
        default:
          throw new Error(`unexpected ${name}`);
      }
    },
  } as unknown as Pick<SQSClient, "send">;
  return { sqs, calls };
}

describe("redriveDeadLetters", () => {
  it("deletes from the DLQ only the message whose send succeeded, and makes the other visible again", async () => {
    const { sqs, calls } = fakeSqs();

    const report = await redriveDeadLetters(sqs, { dlqUrl: "dlq", targetUrl: "work", waitTimeSeconds: 0 });

    assert.deepEqual(
      report.moved.map((letter) => [letter.messageId, letter.newMessageId, letter.receiveCount]),
      [["id-good", "new-good", 5]],
    );
    assert.deepEqual(
      report.failed.map((letter) => [letter.messageId, letter.stage, letter.code]),
      [["id-poison", "send", "InvalidMessageContents"]],
    );
    const names = calls.map((call) => call.name);
    assert.ok(names.indexOf("SendMessageBatchCommand") < names.indexOf("DeleteMessageBatchCommand"));
    const deleted = calls
      .filter((call) => call.name === "DeleteMessageBatchCommand")
      .flatMap((call) => call.input.Entries);
    assert.deepEqual(
      deleted.map((entry) => (entry as { ReceiptHandle: string }).ReceiptHandle),
      ["rh-good"],
    );
    const released = calls
      .filter((call) => call.name === "ChangeMessageVisibilityBatchCommand")
      .flatMap((call) => call.input.Entries as { ReceiptHandle: string; VisibilityTimeout: number }[]);
    assert.deepEqual(released, [{ Id: "r0", ReceiptHandle: "rh-poison", VisibilityTimeout: 0 }]);
  });
});
