import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  AUDIT_QUEUE,
  OUTCOMES_STATUS_INDEX,
  type StoredOutcome,
  StoredOutcomeSchema,
} from "../../functions/outcomes/index.js";
import { ReviewRequestError } from "./errors.js";

/**
 * The by-status index partitions (`<policy>#<this>`) whose outcomes wait for a person: an answer
 * still on its fallback or a review rule (a partial review keeps an item there), and audit items.
 */
export const WAITING_STATUSES = ["fallback", AUDIT_QUEUE] as const;

/** Options of {@link readReviewQueue}. */
export interface ReviewQueueOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** The policies to list, each read through its `<policy>#fallback` and `<policy>#audit` partitions. */
  policies: readonly string[];
  /** Items per page. */
  limit: number;
  /** The previous page's `next`: only items after it in the queue's order. */
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
 * are merged, so a page is exact however the items spread over policies. The cursor is the last
 * item's time with the items at that time already shown, so equal times never skip an item.
 */
export async function readReviewQueue(options: ReviewQueueOptions): Promise<ReviewQueuePage> {
  const cursor = options.before === undefined ? undefined : readCursor(options.before);
  const keep = (outcome: StoredOutcome): boolean =>
    (cursor === undefined ||
      outcome.updated_at < cursor.time ||
      !cursor.seen.has(`${outcome.policy}\n${outcome.id}`)) &&
    (options.keep ?? (() => true))(outcome);
  const lists = await Promise.all(
    options.policies.flatMap((policy) =>
      WAITING_STATUSES.map((status) => readPartition(options, `${policy}#${status}`, cursor?.time, keep)),
    ),
  );
  const merged = lists.flatMap((list) => list.items).sort(newestFirst);
  const page = merged.slice(0, options.limit);
  const more = merged.length > options.limit || lists.some((list) => list.more);
  const last = page.at(-1);
  if (!more || last === undefined) return { items: page };
  // Items sharing the last one's time may straddle the page: the cursor names those already shown.
  const seen: Pick<StoredOutcome, "policy" | "id">[] = page.filter(
    (outcome) => outcome.updated_at === last.updated_at,
  );
  if (cursor !== undefined && cursor.time === last.updated_at) seen.push(...[...cursor.seen].map(unseenKey));
  return { items: page, next: writeCursor(last.updated_at, seen) };
}

interface Cursor {
  time: string;
  /** `policy\nid` of the items at `time` already shown. */
  seen: Set<string>;
}

function writeCursor(time: string, shown: readonly Pick<StoredOutcome, "policy" | "id">[]): string {
  return Buffer.from(JSON.stringify([time, shown.map((o) => `${o.policy}\n${o.id}`)])).toString("base64url");
}

function unseenKey(key: string): Pick<StoredOutcome, "policy" | "id"> {
  const [policy = "", id = ""] = key.split("\n");
  return { policy, id };
}

/** @throws ReviewRequestError for a cursor this module did not write. */
function readCursor(text: string): Cursor {
  try {
    const [time, seen] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof time === "string" && Array.isArray(seen) && seen.every((key) => typeof key === "string"))
      return { time, seen: new Set(seen as string[]) };
  } catch {
    // Falls through to the error below: any text that is not a cursor gets the same answer.
  }
  throw new ReviewRequestError(
    ["query", "before"],
    "is not a cursor of this queue: pass the `next` of a page",
  );
}

async function readPartition(
  options: ReviewQueueOptions,
  partition: string,
  atOrBefore: string | undefined,
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
          ...(atOrBefore === undefined ? {} : { "#sk": OUTCOMES_STATUS_INDEX.sort }),
        },
        ExpressionAttributeValues: {
          ":pk": partition,
          ...(atOrBefore === undefined ? {} : { ":before": atOrBefore }),
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
