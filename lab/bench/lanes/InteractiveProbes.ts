import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import type { ProbeItem } from "../../../local/index.js";

/** One interactive item sent by the lanes bench, and its outcome once read. */
export interface InteractiveTiming {
  policy: string;
  id: string;
  /** Epoch ms just before its SendMessage. */
  sentAt: number;
  /** Epoch ms of its outcome's `created_at`; undefined while it has none. */
  decidedAt: number | undefined;
  /** Its outcome's `timings.endpoint_ms` (one evaluation as the decide function timed it). */
  endpointMs: number | undefined;
}

/** Options of {@link InteractiveProbes}. */
export interface InteractiveProbesOptions {
  sqs: SQSClient;
  documents: DynamoDBDocumentClient;
  /** The interactive lane's queue. */
  queueUrl: string;
  /** The outcomes table. */
  table: string;
}

/** BatchGetItem reads at most 100 keys per call (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html). */
const BATCH_GET_KEYS = 100;

/**
 * The interactive items of one phase of the lanes bench: each is sent on its own (one
 * SendMessage, as an incident's rule sends it) and its send→outcome time ends at its outcome's
 * `created_at` (this machine's clock at both ends), so how often the outcomes are read adds
 * nothing to it. Reading is separate from sending: one {@link refresh} reads every outcome still
 * missing, instead of one poll loop per item.
 */
export class InteractiveProbes {
  readonly #options: InteractiveProbesOptions;
  readonly #timings: InteractiveTiming[] = [];

  constructor(options: InteractiveProbesOptions) {
    this.#options = options;
  }

  /**
   * Sends one item to the interactive lane's queue.
   * @throws Error from SQS when the queue refuses it.
   */
  async send(item: ProbeItem): Promise<void> {
    const timing: InteractiveTiming = {
      policy: item.policy,
      id: item.id,
      sentAt: Date.now(),
      decidedAt: undefined,
      endpointMs: undefined,
    };
    await this.#options.sqs.send(
      new SendMessageCommand({ QueueUrl: this.#options.queueUrl, MessageBody: item.body }),
    );
    this.#timings.push(timing);
  }

  /** Reads the outcomes of the items that had none yet; returns how many items have one now. */
  async refresh(): Promise<number> {
    const missing = this.#timings.filter((timing) => timing.decidedAt === undefined);
    for (let start = 0; start < missing.length; start += BATCH_GET_KEYS) {
      const chunk = missing.slice(start, start + BATCH_GET_KEYS);
      const byKey = new Map(chunk.map((timing) => [`${timing.policy}\n${timing.id}`, timing]));
      let keys: Record<string, unknown>[] | undefined = chunk.map(({ policy, id }) => ({ policy, id }));
      while (keys !== undefined && keys.length > 0) {
        const answer: BatchGetCommandOutput = await this.#options.documents.send(
          new BatchGetCommand({
            RequestItems: {
              [this.#options.table]: {
                Keys: keys,
                ProjectionExpression: "#policy, #id, created_at, timings",
                ExpressionAttributeNames: { "#policy": "policy", "#id": "id" },
              },
            },
          }),
        );
        for (const item of answer.Responses?.[this.#options.table] ?? []) {
          const timing = byKey.get(`${String(item.policy)}\n${String(item.id)}`);
          if (timing === undefined || typeof item.created_at !== "string") continue;
          timing.decidedAt = Date.parse(item.created_at);
          const ms = (item.timings as { endpoint_ms?: unknown } | undefined)?.endpoint_ms;
          if (typeof ms === "number") timing.endpointMs = ms;
        }
        // Keys DynamoDB did not get to this time are asked for again.
        keys = answer.UnprocessedKeys?.[this.#options.table]?.Keys;
      }
    }
    return this.decided;
  }

  /** Items sent. */
  get sent(): number {
    return this.#timings.length;
  }

  /** Items whose outcome has been read. */
  get decided(): number {
    return this.#timings.filter((timing) => timing.decidedAt !== undefined).length;
  }

  /** Every item sent, in sending order. */
  get timings(): readonly InteractiveTiming[] {
    return this.#timings;
  }

  /** Send→outcome (ms) of each item with an outcome. */
  sendToOutcomeMs(): number[] {
    return this.#timings.flatMap((timing) =>
      timing.decidedAt === undefined ? [] : [timing.decidedAt - timing.sentAt],
    );
  }

  /** The median `timings.endpoint_ms` of the items' outcomes; 0 when none has one. */
  medianEndpointMs(): number {
    const sorted = this.#timings.flatMap((timing) => timing.endpointMs ?? []).sort((a, b) => a - b);
    return Math.round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
  }
}
