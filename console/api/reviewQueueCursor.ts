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
