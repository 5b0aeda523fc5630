import type { ReviewOrder, ReviewOrderKey } from "../../contract/outcome/reviewOrder.js";
import { ReviewRequestError } from "./errors.js";

/**
 * Where one by-status partition of the review queue stands: nothing read yet, read to its end, or
 * after the index entry (`updated_at`, `id`) — the entry's whole index key, so entries sharing an
 * `updated_at` are told apart by the table's own key, as DynamoDB's `ExclusiveStartKey` does.
 */
export type PartitionPosition = "start" | "end" | { updatedAt: string; id: string };

/** The review queue's cursor: the position of each partition it reads (`<policy>#<status>`). */
export type ReviewQueueCursor = ReadonlyMap<string, PartitionPosition>;

/** Longest `updated_at` a cursor may name (ISO-8601 times are 24 characters). */
const MAX_TIME_CHARS = 64;
/** Longest id a cursor may name: DynamoDB's limit on a sort key, in bytes. */
const MAX_ID_BYTES = 1024;

/** The cursor as the `next` text of a queue page (base64url JSON). */
export function writeReviewQueueCursor(cursor: ReviewQueueCursor): string {
  const positions = Object.fromEntries(
    [...cursor].map(([partition, position]) => [
      partition,
      typeof position === "string" ? position : [position.updatedAt, position.id],
    ]),
  );
  return Buffer.from(JSON.stringify({ v: 2, p: positions })).toString("base64url");
}

/**
 * Reads a `next` text back, for exactly the partitions this request reads.
 * @throws ReviewRequestError when the text is not a cursor of this queue, or one of another set of
 *   policies (a cursor only continues the listing that gave it).
 */
export function readReviewQueueCursor(text: string, partitions: readonly string[]): ReviewQueueCursor {
  const positions = parse(text);
  const names = Object.keys(positions);
  if (names.length !== partitions.length || !partitions.every((name) => Object.hasOwn(positions, name)))
    throw new ReviewRequestError(
      ["query", "before"],
      "is the cursor of another listing: pass the `next` of a page listed with the same policy",
    );
  return new Map(partitions.map((name) => [name, positionOf(positions[name])]));
}

function parse(text: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch (error) {
    throw notACursor(error);
  }
  const positions = (json as { v?: unknown; p?: unknown } | null)?.p;
  if ((json as { v?: unknown } | null)?.v !== 2 || typeof positions !== "object" || positions === null)
    throw notACursor();
  return positions as Record<string, unknown>;
}

function positionOf(value: unknown): PartitionPosition {
  if (value === "start" || value === "end") return value;
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === "string" &&
    typeof value[1] === "string" &&
    value[0].length > 0 &&
    value[0].length <= MAX_TIME_CHARS &&
    value[1].length > 0 &&
    Buffer.byteLength(value[1]) <= MAX_ID_BYTES
  )
    return { updatedAt: value[0], id: value[1] };
  throw notACursor();
}

function notACursor(cause?: unknown): ReviewRequestError {
  return new ReviewRequestError(
    ["query", "before"],
    "is not a cursor of this queue: pass the `next` of a page",
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Where a worth-ordered listing (`order=margin|entropy`) stands. The listing orders the queue one
 * window at a time: a window is the `window` newest waiting entries (index entries, before any
 * filter) plus those sharing the oldest one's `updated_at`, so windows are ranges of `updated_at`
 * and never split a tie. Every page of a window reads the whole window again and lists the items
 * after `after` in the worth order; the next window holds the entries older than this one's `lo`.
 * The cursor is readable and can be rewritten by its holder: its positions only choose where a
 * window is read, and `readReviewQueueByWorth` bounds what one request reads whatever they say.
 */
export interface WorthCursor {
  order: Exclude<ReviewOrder, "newest">;
  /** Which listing (a fingerprint of the partitions read): a cursor continues only its own. */
  listing: string;
  /** The listing's snapshot: entries changed after it (new items, partial reviews) are left to the next listing. */
  asOf: string;
  /** The window holds entries older than this (exclusive); absent for the first window. */
  below?: string;
  /** The window's oldest `updated_at` (inclusive); null: to the end of every partition; absent: not read yet. */
  lo?: string | null;
  /** The last item listed in this window. */
  after?: ReviewOrderKey;
}

/** The worth cursor as the `next` text of a queue page (base64url JSON). */
export function writeWorthCursor(cursor: WorthCursor): string {
  return Buffer.from(
    JSON.stringify({
      v: 3,
      o: cursor.order,
      f: cursor.listing,
      a: cursor.asOf,
      ...(cursor.below === undefined ? {} : { b: cursor.below }),
      ...(cursor.lo === undefined ? {} : { l: cursor.lo }),
      ...(cursor.after === undefined
        ? {}
        : {
            k: [
              cursor.after.tier,
              cursor.after.worth,
              cursor.after.updatedAt,
              cursor.after.policy,
              cursor.after.id,
            ],
          }),
    }),
  ).toString("base64url");
}

/**
 * Reads a worth cursor back, for the listing `listing` in `order`.
 * @throws ReviewRequestError when the text is not a worth cursor, or one of another order or set
 *   of policies
 */
export function readWorthCursor(
  text: string,
  order: Exclude<ReviewOrder, "newest">,
  listing: string,
): WorthCursor {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch (error) {
    throw notACursor(error);
  }
  if (json === null || typeof json !== "object" || json.v !== 3) throw notACursor();
  if (json.o !== order || json.f !== listing)
    throw new ReviewRequestError(
      ["query", "before"],
      "is the cursor of another listing: pass the `next` of a page listed with the same policy and order",
    );
  const time = (value: unknown): value is string =>
    typeof value === "string" && value.length > 0 && value.length <= MAX_TIME_CHARS;
  if (!time(json.a)) throw notACursor();
  if (json.b !== undefined && !time(json.b)) throw notACursor();
  if (json.l !== undefined && json.l !== null && !time(json.l)) throw notACursor();
  const cursor: WorthCursor = { order, listing, asOf: json.a };
  if (typeof json.b === "string") cursor.below = json.b;
  if (json.l !== undefined) cursor.lo = json.l as string | null;
  if (json.k !== undefined) {
    const key = json.k;
    if (
      !Array.isArray(key) ||
      key.length !== 5 ||
      (key[0] !== 0 && key[0] !== 1) ||
      typeof key[1] !== "number" ||
      !Number.isFinite(key[1]) ||
      !time(key[2]) ||
      typeof key[3] !== "string" ||
      typeof key[4] !== "string" ||
      key[4].length === 0 ||
      Buffer.byteLength(key[4]) > MAX_ID_BYTES
    )
      throw notACursor();
    cursor.after = { tier: key[0], worth: key[1], updatedAt: key[2], policy: key[3], id: key[4] };
  }
  return cursor;
}
