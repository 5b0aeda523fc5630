import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { OutcomesReader } from "../../core/outcomes/index.js";
import type { DemoMessage } from "./readDemoInputs.js";

/** A work item sent to measure its send→outcome time. */
export interface ProbeItem {
  policy: string;
  id: string;
  body: string;
}

/** One probe's send→outcome time. */
export interface IncidentTiming {
  policy: string;
  id: string;
  /** Epoch ms just before its SendMessageBatch. */
  sentAt: number;
  /** Epoch ms of its outcome's `created_at`, or undefined when none came within the timeout. */
  decidedAt: number | undefined;
}

/** Options of {@link timeIncidents}. */
export interface TimeIncidentsOptions {
  sqs: SQSClient;
  documents: DynamoDBDocumentClient;
  queueUrl: string;
  table: string;
  /** At most 10 (one SendMessageBatch): they are sent at once, as incidents opened together. */
  items: readonly ProbeItem[];
  /** How long to wait for their outcomes. */
  timeoutMs: number;
  /** Between two reads of the missing outcomes. Default 100 ms. */
  pollMs?: number;
}

/**
 * Sends the probe items to a queue in one SendMessageBatch and waits for their outcomes; each
 * probe's time ends at its outcome's `created_at` (this machine's clock on both ends), not when it
 * was seen, so the polling interval adds nothing to it.
 *
 * @throws Error when SQS refuses one of them (its code and message).
 */
export async function timeIncidents(options: TimeIncidentsOptions): Promise<IncidentTiming[]> {
  if (options.items.length > 10) throw new RangeError("timeIncidents sends at most 10 items at once");
  const sentAt = Date.now();
  const answer = await options.sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: options.queueUrl,
      Entries: options.items.map((item, index) => ({ Id: String(index), MessageBody: item.body })),
    }),
  );
  const refused = answer.Failed?.[0];
  if (refused !== undefined) {
    throw new Error(`SQS refused probe ${refused.Id}: ${refused.Code ?? "?"}: ${refused.Message ?? ""}`);
  }
  const timings: IncidentTiming[] = options.items.map((item) => ({
    policy: item.policy,
    id: item.id,
    sentAt,
    decidedAt: undefined,
  }));
  const deadline = Date.now() + options.timeoutMs;
  const outcomes = new OutcomesReader({ client: options.documents, tableName: options.table });
  for (;;) {
    const missing = timings.filter((timing) => timing.decidedAt === undefined);
    for (const timing of missing) {
      const found = await outcomes.get(timing.policy, timing.id);
      if (found !== undefined) timing.decidedAt = Date.parse(found.created_at);
    }
    if (timings.every((timing) => timing.decidedAt !== undefined) || Date.now() > deadline) return timings;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

/**
 * `count` incident work items from the demo's messages (`incidents.jsonl` lines), each under the id
 * `<id>-<suffix>` so it is a new item with an outcome of its own.
 */
export function probeIncidents(messages: readonly DemoMessage[], count: number, suffix: string): ProbeItem[] {
  const probes: ProbeItem[] = [];
  for (const message of messages) {
    if (probes.length >= count) break;
    if (!message.origin.startsWith("incidents.jsonl:")) continue;
    const item = parseItem(message.body);
    if (item === undefined) continue;
    const id = `${item.id}-${suffix}`;
    probes.push({ policy: item.policy, id, body: JSON.stringify({ ...item.fields, id }) });
  }
  return probes;
}

function parseItem(
  body: string,
): { policy: string; id: string; fields: Record<string, unknown> } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    // A sample line that is not JSON is meant to be rejected: it is no probe.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const fields = parsed as Record<string, unknown>;
  if (typeof fields.policy !== "string" || typeof fields.id !== "string") return undefined;
  return { policy: fields.policy, id: fields.id, fields };
}
