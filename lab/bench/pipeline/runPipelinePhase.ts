import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { LocalStack } from "../../../local/index.js";
import { type SqsBatchHandler, SqsEventSourcePoller } from "../../../local/index.js";
import type { ProxyExchange } from "../../chaos/FaultProxy.js";
import type { StreamItem } from "./buildTicketStream.js";

/** The event source mapping of one phase. */
export interface PhaseMapping {
  batchSize: number;
  maximumBatchingWindowMs: number;
  maximumConcurrency: number;
}

/** What one pipeline phase measured. */
export interface PipelinePhase {
  items: number;
  wall_ms: number;
  decisions_per_s: number;
  batches: number;
  /** Calls from the gateway to the adapter (one per group of items sharing a state in a batch). */
  adapter_calls: number;
  /** Time of those calls as the proxy in front of the adapter saw them, summed. */
  adapter_ms: number;
  /** `usage.input_tokens` of those calls, summed. */
  input_tokens: number;
  /** Each distinct state's request tokens (the same state costs the same), by state text. */
  tokensByState: Map<string, number>;
}

/**
 * Sends the items to the stack's work queue and runs `handler` under an event source poller with
 * the phase's mapping until every item's record was deleted; the wall time runs from the first
 * send to the last delete. The proxy's exchanges of the phase give the adapter's share.
 *
 * @throws Error when a record fails (the bench runs without faults) or the phase exceeds `timeoutMs`.
 */
export async function runPipelinePhase(
  stack: LocalStack,
  handler: SqsBatchHandler,
  mapping: PhaseMapping,
  items: readonly StreamItem[],
  exchanges: ProxyExchange[],
  timeoutMs = 1_800_000,
): Promise<PipelinePhase> {
  exchanges.length = 0;
  let succeeded = 0;
  let batches = 0;
  let failure: string | undefined;
  let finishedAt = 0;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const poller = new SqsEventSourcePoller({
    sqs: stack.clients.sqs,
    queueUrl: stack.queueUrl,
    queueArn: stack.queueArn,
    region: stack.region,
    handler,
    functionTimeoutMs: 600_000,
    waitTimeSeconds: 1,
    ...mapping,
    onBatch: ({ outcome }) => {
      batches += 1;
      succeeded += outcome.succeeded.length;
      if (outcome.failed.length > 0) failure ??= `${outcome.failed.length} record(s) failed`;
      if (succeeded >= items.length || failure !== undefined) {
        finishedAt = performance.now();
        finish();
      }
    },
  });
  const started = performance.now();
  for (let start = 0; start < items.length; start += 10) {
    const chunk = items.slice(start, start + 10);
    await stack.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: stack.queueUrl,
        Entries: chunk.map((item, index) => ({ Id: String(index), MessageBody: item.body })),
      }),
    );
    if (start === 0) poller.start();
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      failure ??= `not every item was decided within ${timeoutMs / 1000} s`;
      resolve();
    }, timeoutMs);
  });
  await Promise.race([done, timedOut]);
  clearTimeout(timer);
  await poller.stop();
  if (failure !== undefined) throw new Error(`pipeline phase: ${failure}`);
  const wallMs = finishedAt - started;
  const tokensByState = new Map<string, number>();
  let inputTokens = 0;
  let adapterMs = 0;
  for (const exchange of exchanges) {
    const tokens = (JSON.parse(exchange.body) as { usage: { input_tokens: number } }).usage.input_tokens;
    inputTokens += tokens;
    adapterMs += exchange.upstreamMs;
    tokensByState.set(stateOf(exchange.request), tokens);
  }
  return {
    items: items.length,
    wall_ms: Math.round(wallMs),
    decisions_per_s: items.length / (wallMs / 1000),
    batches,
    adapter_calls: exchanges.length,
    adapter_ms: Math.round(adapterMs),
    input_tokens: inputTokens,
    tokensByState,
  };
}

/** The state text of a System One body the decide function built (`{"state": <text>, "questions": …}`). */
function stateOf(body: string): string {
  const start = body.indexOf('{"state": ') + '{"state": '.length;
  const end = body.lastIndexOf(', "questions": ');
  return body.slice(start, end);
}
