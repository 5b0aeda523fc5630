import {
  AUDIT_QUEUE,
  type ReviewQueueReader,
  type StatusIndexEntry,
  type StatusIndexPosition,
  type StoredOutcome,
} from "../outcomes/index.js";
import {
  type PartitionPosition,
  type ReviewQueueCursor,
  readReviewQueueCursor,
  writeReviewQueueCursor,
} from "./reviewQueueCursor.js";

/**
 * The by-status index partitions (`<policy>#<this>`) whose outcomes wait for a person: an answer
 * still on its fallback or a review rule (a partial review keeps an item there), and audit items.
 */
export const WAITING_STATUSES = ["fallback", AUDIT_QUEUE] as const;

/** Index entries read per Query when a filter may leave most of them out. */
export const DEFAULT_QUEUE_READ_PAGE = 200;
/** Index entries one queue request reads, at most (beyond each partition's first page). */
export const DEFAULT_QUEUE_MAX_READ = 1000;

/** Waiting items {@link countWaiting} counts at most before it stops. */
export const DEFAULT_WAITING_COUNT_BOUND = 10_000;

/**
 * How many items wait for review in `policies`: the entries of their waiting partitions of the
 * `by-status` index, counted through the outcomes table's home, stopping once `bound` are counted
 * (then `more`: at least that many wait).
 */
export function countWaiting(options: {
  reader: ReviewQueueReader;
  policies: readonly string[];
  bound?: number;
}): Promise<{ count: number; more: boolean }> {
  const partitions = options.policies.flatMap((policy) =>
    WAITING_STATUSES.map((status) => `${policy}#${status}`),
  );
  return options.reader.countEntries(partitions, options.bound ?? DEFAULT_WAITING_COUNT_BOUND);
}

/** Options of {@link readReviewQueue}. */
export interface ReviewQueueOptions {
  /** The outcomes table's reads (its home, `core/outcomes`). */
  reader: ReviewQueueReader;
  /** The policies to list, each read through its `<policy>#fallback` and `<policy>#audit` partitions. */
  policies: readonly string[];
  /** Items per page. */
  limit: number;
  /** The previous page's `next`: only items after it in the queue's order. */
  before?: string;
  /** Keep an item? Applied before the page is cut, so a filtered page is full unless the read bound stops it. */
  keep?: (outcome: StoredOutcome) => boolean;
  /** Index entries per Query with `keep` (without, `limit + 1`). Default {@link DEFAULT_QUEUE_READ_PAGE}. */
  readPageSize?: number;
  /**
   * Index entries read per request, at most: past it the request answers with what it found and a
   * `next` to continue (`cut`). Each partition's first page is read whatever the bound (the merge
   * needs every partition's newest entry). Default {@link DEFAULT_QUEUE_MAX_READ}.
   */
  maxRead?: number;
}

/** One page of the review queue, newest first. */
export interface ReviewQueuePage {
  items: StoredOutcome[];
  /** Pass as `before` for the next page; absent once every waiting item was listed. */
  next?: string;
  /** Index entries this request read. */
  read: number;
  /** The read bound stopped this page before it was full: more may match after `next`. */
  cut?: true;
}

/**
 * The items waiting for review across policies, newest first, one page at a time, through the
 * `by-status` index (one partition per policy and status, sorted by `updated_at`, which many items
 * may share). The partitions are merged entry by entry in their index order, so the cursor is each
 * partition's position as an index key (`updated_at` and the table's own key), as DynamoDB's
 * `ExclusiveStartKey` is: every waiting item is listed exactly once whatever the page size. A
 * filtered request reads at most `maxRead` entries (plus each partition's first page), so its cost
 * does not grow with the partition; a page the bound cut says so and continues with `next`.
 *
 * @throws ReviewRequestError for a `before` that is not a cursor of this listing.
 */
export async function readReviewQueue(options: ReviewQueueOptions): Promise<ReviewQueuePage> {
  const partitions = options.policies.flatMap((policy) =>
    WAITING_STATUSES.map((status) => ({ policy, name: `${policy}#${status}` })),
  );
  const cursor =
    options.before === undefined
      ? undefined
      : readReviewQueueCursor(
          options.before,
          partitions.map((partition) => partition.name),
        );
  const readers = partitions.map(
    (partition) =>
      new PartitionReader(options, partition.policy, partition.name, cursor?.get(partition.name) ?? "start"),
  );
  const keep = options.keep ?? (() => true);
  const pageSize =
    options.keep === undefined
      ? options.limit + 1
      : Math.max(options.limit + 1, options.readPageSize ?? DEFAULT_QUEUE_READ_PAGE);
  const maxRead = options.maxRead ?? DEFAULT_QUEUE_MAX_READ;
  let read = 0;
  const counts = await Promise.all(
    readers.filter((reader) => reader.hungry).map((reader) => reader.fetch(pageSize)),
  );
  read += counts.reduce((sum, count) => sum + count, 0);

  const items: StoredOutcome[] = [];
  // The positions right after the page's last item, once the page is full.
  let full: ReviewQueueCursor | undefined;
  for (;;) {
    const hungry = readers.find((reader) => reader.hungry);
    if (hungry !== undefined) {
      if (read >= maxRead)
        return full !== undefined
          ? { items, next: writeReviewQueueCursor(full), read }
          : { items, next: writeReviewQueueCursor(positionsOf(readers)), read, cut: true };
      read += await hungry.fetch(Math.min(pageSize, maxRead - read));
      continue;
    }
    const reader = newestOf(readers);
    if (reader === undefined) return { items, read };
    const outcome = reader.take();
    if (outcome === undefined || !keep(outcome)) continue;
    // One more kept item after a full page: there is a next page.
    if (full !== undefined) return { items, next: writeReviewQueueCursor(full), read };
    items.push(outcome);
    if (items.length === options.limit) full = positionsOf(readers);
  }
}

/** One by-status partition read newest first, page by page, from a cursor's position. */
class PartitionReader {
  /** The partition, `<policy>#<status>`. */
  readonly name: string;
  /** After the last entry taken from it (or the cursor's position, before any). */
  #taken: PartitionPosition;
  readonly #buffer: StatusIndexEntry[] = [];
  readonly #options: ReviewQueueOptions;
  readonly #policy: string;
  /** Where the next Query starts (after the last entry read), undefined from the newest. */
  #from: StatusIndexPosition | undefined;
  #ended: boolean;

  constructor(options: ReviewQueueOptions, policy: string, partition: string, position: PartitionPosition) {
    this.#options = options;
    this.#policy = policy;
    this.name = partition;
    this.#taken = position;
    this.#ended = position === "end";
    this.#from = typeof position === "string" ? undefined : position;
  }

  /** Where this partition stands: after the last entry taken from it, or at its end. */
  get position(): PartitionPosition {
    return this.#ended && this.#buffer.length === 0 ? "end" : this.#taken;
  }

  /** Nothing buffered, and the partition may hold more. */
  get hungry(): boolean {
    return this.#buffer.length === 0 && !this.#ended;
  }

  /** The newest entry not yet taken. */
  get head(): StatusIndexEntry | undefined {
    return this.#buffer[0];
  }

  /** Reads the next page of at most `limit` entries; answers how many entries it read. */
  async fetch(limit: number): Promise<number> {
    const page = await this.#options.reader.statusPage(this.#policy, this.name, {
      limit: Math.max(1, limit),
      ...(this.#from === undefined ? {} : { after: this.#from }),
    });
    // An item the schema does not know (written by a newer version) has no outcome: not offered for review.
    this.#buffer.push(...page.entries);
    this.#from = page.last;
    if (this.#from === undefined) this.#ended = true;
    // A page of no entries still counts (`read` ≥ 1), so the bound ends a request whatever DynamoDB answers.
    return page.read;
  }

  /** Takes the newest buffered entry: this partition now stands after it. */
  take(): StoredOutcome | undefined {
    const entry = this.#buffer.shift();
    if (entry === undefined) return undefined;
    this.#taken = { updatedAt: entry.updatedAt, id: entry.id };
    return entry.outcome;
  }
}

/** The reader whose next entry is the newest (the first such reader on equal times), if any. */
function newestOf(readers: readonly PartitionReader[]): PartitionReader | undefined {
  let newest: PartitionReader | undefined;
  for (const reader of readers) {
    const head = reader.head;
    if (head !== undefined && (newest?.head === undefined || head.updatedAt > newest.head.updatedAt))
      newest = reader;
  }
  return newest;
}

function positionsOf(readers: readonly PartitionReader[]): ReviewQueueCursor {
  return new Map(readers.map((reader) => [reader.name, reader.position]));
}
