import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  OUTCOMES_STATUS_INDEX,
  type StoredOutcome,
  StoredOutcomeSchema,
} from "../../functions/outcomes/index.js";

/** The statuses whose outcomes wait for a person: an answer still on its fallback, or a review rule. */
export const WAITING_STATUSES = ["fallback"] as const;

/** Options of {@link readReviewQueue}. */
export interface ReviewQueueOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** The policies to list, each read through its own `<policy>#fallback` partition of the index. */
  policies: readonly string[];
  /** Items per page. */
  limit: number;
  /** Only items last changed before this ISO time (the previous page's `next`). */
  before?: string;
  /** Keep an item? Applied before the page is cut, so a filtered page is still full. */
  keep?: (outcome: StoredOutcome) => boolean;
}

/** One page of the review queue, newest first. */
export interface ReviewQueuePage {
  items: StoredOutcome[];
  /** Pass as `before` for the next page; absent on the last one. */
  next?: string;
}

/**
 * The items waiting for review across policies, newest first, one page at a time, through the
 * `by-status` index (one partition per policy and status, sorted by `updated_at`). Each partition
 * is read from `before` downwards until it has given `limit` kept items or ends, and the partitions
 * are merged, so a page is exact however the items spread over policies. Items with the same
 * `updated_at` as the page's last are kept together on the next page (the cursor is a time).
 */
export async function readReviewQueue(options: ReviewQueueOptions): Promise<ReviewQueuePage> {
  const keep = options.keep ?? (() => true);
  const lists = await Promise.all(
    options.policies.flatMap((policy) =>
      WAITING_STATUSES.map((status) => readPartition(options, `${policy}#${status}`, keep)),
    ),
  );
  const merged = lists.flatMap((list) => list.items).sort(newestFirst);
  const more = merged.length > options.limit || lists.some((list) => list.more);
  let page = merged.slice(0, options.limit);
  if (!more) return { items: page };
  // The cursor is a time: an item sharing the last one's time would be skipped by `before`.
  const last = page.at(-1)?.updated_at;
  if (last === undefined) return { items: page };
  const cut = page.filter((outcome) => outcome.updated_at > last);
  page = cut.length > 0 ? cut : page;
  const next = page.at(-1)?.updated_at;
  return next === undefined ? { items: page } : { items: page, next };
}

async function readPartition(
  options: ReviewQueueOptions,
  partition: string,
  keep: (outcome: StoredOutcome) => boolean,
): Promise<{ items: StoredOutcome[]; more: boolean }> {
  const items: StoredOutcome[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const answer = await options.client.send(
      new QueryCommand({
        TableName: options.tableName,
        IndexName: OUTCOMES_STATUS_INDEX.name,
        KeyConditionExpression: options.before === undefined ? "#pk = :pk" : "#pk = :pk AND #sk < :before",
        ExpressionAttributeNames: {
          "#pk": OUTCOMES_STATUS_INDEX.partition,
          ...(options.before === undefined ? {} : { "#sk": OUTCOMES_STATUS_INDEX.sort }),
        },
        ExpressionAttributeValues: {
          ":pk": partition,
          ...(options.before === undefined ? {} : { ":before": options.before }),
        },
        ScanIndexForward: false,
        Limit: options.limit + 1,
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of answer.Items ?? []) {
      const parsed = StoredOutcomeSchema.safeParse(raw);
      // An item the schema does not know (written by a newer version) is not offered for review.
      if (parsed.success && keep(parsed.data)) items.push(parsed.data);
    }
    start = answer.LastEvaluatedKey;
  } while (start !== undefined && items.length <= options.limit);
  return { items, more: start !== undefined || items.length > options.limit };
}

function newestFirst(a: StoredOutcome, b: StoredOutcome): number {
  return a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : a.id < b.id ? -1 : 1;
}
