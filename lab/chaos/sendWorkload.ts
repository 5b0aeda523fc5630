import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { ChaosWorkload } from "./buildChaosWorkload.js";
import type { RunState } from "./RunState.js";
import { waitFor } from "./waitFor.js";

/**
 * Sends the workload in its order, 10 messages at a time, each to its lane's queue (one
 * SendMessageBatch per lane of the ten: the lanes interleaved), keeping about `backlog` messages
 * sent but not ended until every fault has fired, so items of both lanes flow through each fault;
 * then the rest at once.
 */
export async function sendWorkload(
  sqs: SQSClient,
  queueUrls: Record<Lane, string>,
  workload: ChaosWorkload,
  run: RunState,
  backlog: number,
): Promise<void> {
  const { messages } = workload;
  for (let start = 0; start < messages.length; start += 10) {
    await waitFor(
      () => run.faultsDone || run.sent.length - run.ended.size < backlog || run.stalledFor(30_000),
    );
    for (const lane of LANES) {
      const chunk = messages.slice(start, start + 10).filter((message) => message.lane === lane);
      if (chunk.length === 0) continue;
      const answer = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrls[lane],
          Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: message.body })),
        }),
      );
      for (const entry of answer.Successful ?? []) {
        const message = chunk[Number(entry.Id)];
        if (message !== undefined && entry.MessageId !== undefined) {
          run.sent.push({ messageId: entry.MessageId, item: message.item, lane });
        }
      }
      run.sendFailures += (answer.Failed ?? []).length;
    }
  }
  run.sendDone = true;
}
