import { queueDepth } from "../../../local/eventSource/queueDepth.js";
import type { LocalStack } from "../../../local/index.js";
import type { WorkloadItem } from "../../chaos/buildChaosWorkload.js";
import { type ChaosCheck, checkChaosInvariant, type SentMessage } from "../../chaos/checkChaosInvariant.js";
import { readDeadLetters, scanOutcomeRows } from "../../chaos/readChaosEvidence.js";
import type { BacklogItem } from "./buildBacklogItems.js";

/** The chaos checker on the table, the DLQ and the queue: every item ended exactly once. */
export async function checkEveryItemEnded(
  stack: LocalStack,
  items: readonly BacklogItem[],
  sent: SentMessage[],
): Promise<ChaosCheck> {
  return checkChaosInvariant({
    items: items.map(toWorkloadItem),
    sent,
    rows: (await scanOutcomeRows(stack.clients.dynamodb, stack.table)).filter((row) =>
      String(row.id).startsWith("backlog-"),
    ),
    deadLetters: await readDeadLetters(stack.clients.sqs, stack.dlqUrl),
    failureReasons: new Map(),
    queueRemaining: await queueDepth(stack.clients.sqs, stack.queueUrl),
  });
}

function toWorkloadItem(item: BacklogItem): WorkloadItem {
  return {
    kind: "valid",
    origin: "unique",
    key: { policy: item.policy, id: item.id },
    stateSha256: item.stateSha256,
  };
}
