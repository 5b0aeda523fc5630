import { setTimeout as sleep } from "node:timers/promises";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { queueDepth } from "../../../local/eventSource/queueDepth.js";
import { type LocalStack, type SqsBatchHandler, SqsEventSourcePoller } from "../../../local/index.js";
import type { SentMessage } from "../../chaos/checkChaosInvariant.js";
import type { BacklogItem } from "./buildBacklogItems.js";
import { BATCH_SIZE, BATCHING_WINDOW_MS } from "./constants.js";
import type { Invocation } from "./profileInvocations.js";

/** What draining one backlog through the pipeline saw. */
export interface DrainRun {
  sent: SentMessage[];
  drained: boolean;
  /** From the pollers' start to the last delete. */
  drainS: number;
  /** Records handed to the handlers. */
  deliveries: number;
  /** `performance.now()` at the pollers' start and at the last delete. */
  startedMs: number;
  lastEndMs: number;
  /** Each invocation of a handler. */
  invocations: Invocation[];
  /** Time the queue held messages while no invocation ran, as the drain's polls saw it. */
  unheldMs: number;
}

/**
 * Puts every item on the work queue (SendMessageBatch, 10 at a time), then starts one event
 * source slot (concurrency 1) per handler and waits until the queue is empty and no batch runs —
 * or until nothing has ended for `stallMs` (then not drained). Stops the slots.
 */
export async function drainThrough(
  stack: LocalStack,
  handlers: readonly SqsBatchHandler[],
  items: readonly BacklogItem[],
  settings: { stallMs: number; functionTimeoutMs: number },
  log: (line: string) => void,
): Promise<DrainRun> {
  const { stallMs, functionTimeoutMs } = settings;
  const sent: SentMessage[] = [];
  const chunks: BacklogItem[][] = [];
  for (let start = 0; start < items.length; start += 10) chunks.push(items.slice(start, start + 10));
  const offset = new Map(items.map((item, index) => [item, index]));
  // Eight sends at a time: the backlog lands at once, as a batch file's lines do.
  for (let start = 0; start < chunks.length; start += 8) {
    await Promise.all(
      chunks.slice(start, start + 8).map(async (chunk) => {
        const answer = await stack.clients.sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: stack.queueUrl,
            Entries: chunk.map((item, index) => ({ Id: String(index), MessageBody: item.body })),
          }),
        );
        if ((answer.Failed ?? []).length > 0) throw new Error(`SQS refused ${answer.Failed?.length} sends`);
        for (const entry of answer.Successful ?? []) {
          const item = chunk[Number(entry.Id)] as BacklogItem;
          sent.push({ messageId: entry.MessageId ?? "", item: offset.get(item) ?? -1 });
        }
      }),
    );
  }
  let deliveries = 0;
  let ended = 0;
  let inFlight = 0;
  let lastEndAt = performance.now();
  const invocations: Invocation[] = [];
  const started = performance.now();
  const pollers = handlers.map((handler) =>
    new SqsEventSourcePoller({
      sqs: stack.clients.sqs,
      queueUrl: stack.queueUrl,
      queueArn: stack.queueArn,
      region: stack.region,
      handler: (event, context) => {
        inFlight += 1;
        deliveries += event.Records.length;
        const startMs = performance.now();
        return Promise.resolve(handler(event, context)).finally(() => {
          inFlight -= 1;
          invocations.push({ startMs, endMs: performance.now(), records: event.Records.length });
        });
      },
      functionTimeoutMs,
      waitTimeSeconds: 1,
      batchSize: BATCH_SIZE,
      maximumBatchingWindowMs: BATCHING_WINDOW_MS,
      maximumConcurrency: 1,
      onBatch: ({ outcome }) => {
        if (outcome.succeeded.length > 0) lastEndAt = performance.now();
        ended += outcome.succeeded.length;
      },
    }).start(),
  );
  const progress = setInterval(
    () =>
      log(
        `  ${((performance.now() - started) / 1000).toFixed(0)} s: ${ended} records ended, ${deliveries} delivered`,
      ),
    10_000,
  );
  let drained = false;
  let unheldMs = 0;
  try {
    let quiet = 0;
    let sampledAt = performance.now();
    let unheld = false;
    while (performance.now() - lastEndAt < stallMs) {
      const depth = await queueDepth(stack.clients.sqs, stack.queueUrl);
      // Between two polls the state is taken to be the earlier one's: a coarse sample (250 ms).
      const now = performance.now();
      if (unheld) unheldMs += now - sampledAt;
      sampledAt = now;
      unheld = depth > 0 && inFlight === 0;
      quiet = depth === 0 && inFlight === 0 ? quiet + 1 : 0;
      if (quiet >= 2) {
        drained = true;
        break;
      }
      await sleep(250);
    }
  } finally {
    clearInterval(progress);
    await Promise.all(pollers.map((poller) => poller.stop()));
  }
  return {
    sent,
    drained,
    drainS: (lastEndAt - started) / 1000,
    deliveries,
    startedMs: started,
    lastEndMs: lastEndAt,
    invocations,
    unheldMs,
  };
}
