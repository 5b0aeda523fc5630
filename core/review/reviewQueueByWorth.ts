import { createHash } from "node:crypto";
import {
  compareReviewOrderKeys,
  type ReviewOrder,
  type ReviewOrderKey,
} from "../../contract/outcome/reviewOrder.js";
import type { WorthWindow } from "../../contract/outcome/reviewViews.js";
import type { ReviewQueueReader, StatusIndexPosition, StoredOutcome } from "../outcomes/index.js";
import { WAITING_STATUSES } from "./reviewQueue.js";
import { readWorthCursor, type WorthCursor, writeWorthCursor } from "./reviewQueueCursor.js";

/** Index entries a worth order is computed over at once, by default (one window). */
export const DEFAULT_WORTH_WINDOW = 1000;

/** Entries read per Query of a window. */
const WINDOW_READ_PAGE = 200;

/** Options of {@link readReviewQueueByWorth}. */
export interface WorthQueueOptions {
  /** The outcomes table's reads (its home, `core/outcomes`). */
  reader: ReviewQueueReader;
  /** The policies to list, each through its `<policy>#fallback` and `<policy>#audit` partitions. */
  policies: readonly string[];
  order: Exclude<ReviewOrder, "newest">;
  /** What a label of the item is worth under `order` (smaller first; see `reviewWorth`). */
  worth: (outcome: StoredOutcome) => number;
  /** Items per page. */
  limit: number;
  /** The previous page's `next`. */
  before?: string;
  /** Keep an item? Applied to the window before it is ordered. */
  keep?: (outcome: StoredOutcome) => boolean;
  /** Index entries one window orders, at least (ties of its oldest time join it). Default {@link DEFAULT_WORTH_WINDOW}. */
  window?: number;
}

/** One page of a worth-ordered queue. */
export interface WorthQueuePage {
  items: StoredOutcome[];
  /** Pass as `before` for the next page; absent once every waiting item was listed. */
  next?: string;
  /** Index entries this request read. */
  read: number;
  /** The window ended before the page was full: the next page orders the next (older) window. */
  cut?: true;
  window: WorthWindow;
}

/** An index entry of a window. */
type Entry = Pick<StatusIndexPosition, "updatedAt"> & { outcome?: StoredOutcome };

/**
 * The items waiting for review ordered by what a label is worth (`margin`, `entropy`), one page
 * at a time. A worth order cannot be read from the index (it sorts by time), so it is computed
 * over a bounded window: the `window` newest waiting entries (and any sharing the oldest one's
 * `updated_at`), ordered by {@link compareReviewOrderKeys} — audit items first, then worth, then
 * newest, then policy and id, a total order. Pages continue inside the window after the last item listed; when it is
 * exhausted the next page orders the next older window. So every item waiting when the listing
 * began is listed exactly once whatever the page size; items changed after its first page (new
 * ones, partial reviews) wait for the next listing. Each page reads its whole window again
 * (about `window` entries): the price of an order the index does not keep.
 *
 * The cursor is the client's to keep, so it is not believed: a later page of a window reads it
 * the way its first page did, taking the cursor's lower end only as a floor, and a window is
 * never more than `window` entries and the ties of its oldest time. Whatever a `before` says, a
 * request reads at most that plus one Query page per partition — what an honest page reads.
 *
 * @throws ReviewRequestError for a `before` that is not a cursor of this listing
 */
export async function readReviewQueueByWorth(options: WorthQueueOptions): Promise<WorthQueuePage> {
  const partitions = options.policies.flatMap((policy) =>
    WAITING_STATUSES.map((status) => ({ policy, name: `${policy}#${status}` })),
  );
  const listing = createHash("sha256")
    .update(partitions.map((partition) => partition.name).join("\n"))
    .digest("base64url")
    .slice(0, 16);
  const size = Math.max(1, options.window ?? DEFAULT_WORTH_WINDOW);
  const given =
    options.before === undefined ? undefined : readWorthCursor(options.before, options.order, listing);
  const reader = new WindowReader(options.reader);

  let cursor: WorthCursor;
  let entries: Entry[];
  if (given?.lo !== undefined) {
    // A later page of a window: the window is read again the way its first page read it, down to
    // the cursor's `lo` at most. A window holds `size` entries and the ties of its oldest time,
    // whatever the cursor says: one whose `lo` would take in more (a forged cursor) is cut where
    // an honest window would end, so a page never reads more than a first page does.
    const found = await reader.newest(
      partitions,
      size,
      given.below ?? given.asOf,
      given.below === undefined,
      given.lo,
    );
    entries = found.entries;
    cursor = found.lo === given.lo ? given : { ...given, lo: found.lo };
  } else {
    const found = await reader.newest(
      partitions,
      size,
      given?.below ?? given?.asOf,
      given?.below === undefined,
    );
    entries = found.entries;
    const asOf = given?.asOf ?? entries[0]?.updatedAt;
    if (asOf === undefined) return { items: [], read: reader.read, window: { entries: 0, complete: true } };
    cursor = {
      order: options.order,
      listing,
      asOf,
      ...(given?.below === undefined ? {} : { below: given.below }),
      lo: found.lo,
    };
  }

  const keep = options.keep ?? (() => true);
  const ordered = entries
    .flatMap((entry) =>
      entry.outcome !== undefined && keep(entry.outcome)
        ? [{ outcome: entry.outcome, key: keyOf(entry.outcome, options.worth(entry.outcome)) }]
        : [],
    )
    .filter(({ key }) => cursor.after === undefined || compareReviewOrderKeys(key, cursor.after) > 0)
    .sort((a, b) => compareReviewOrderKeys(a.key, b.key));
  const times = entries.map((entry) => entry.updatedAt).sort();
  const window: WorthWindow = {
    entries: entries.length,
    ...(times.length === 0 ? {} : { newest: times[times.length - 1], oldest: times[0] }),
    complete: cursor.below === undefined && cursor.lo === null,
  };
  const page = ordered.slice(0, options.limit);
  const last = page[page.length - 1];
  if (ordered.length > options.limit && last !== undefined)
    return {
      items: page.map((item) => item.outcome),
      next: writeWorthCursor({ ...cursor, after: last.key }),
      read: reader.read,
      window,
    };
  const items = page.map((item) => item.outcome);
  // This window is listed: continue with the next older one, or end.
  if (cursor.lo === null || cursor.lo === undefined) return { items, read: reader.read, window };
  return {
    items,
    next: writeWorthCursor({ order: cursor.order, listing, asOf: cursor.asOf, below: cursor.lo }),
    read: reader.read,
    ...(items.length < options.limit ? { cut: true as const } : {}),
    window,
  };
}

function keyOf(outcome: StoredOutcome, worth: number): ReviewOrderKey {
  return {
    tier: outcome.audit === undefined ? 1 : 0,
    worth,
    updatedAt: outcome.updated_at,
    policy: outcome.policy,
    id: outcome.id,
  };
}

/** Reads windows of by-status partitions through the outcomes table's home, counting the entries it reads. */
class WindowReader {
  /** Index entries read so far. */
  read = 0;
  readonly #reader: ReviewQueueReader;

  constructor(reader: ReviewQueueReader) {
    this.#reader = reader;
  }

  /**
   * The `size` newest entries across `partitions` older than `upper` (or at most `upper` when
   * `inclusive`; any when undefined) and not older than `lower` (when a time), merged newest
   * first, and every further entry sharing the last one's time; `lo` that time, or — when the
   * partitions held no more — `lower` (the window reaches the range's end), null without one
   * (the window reaches the partitions' end).
   */
  async newest(
    partitions: readonly { policy: string; name: string }[],
    size: number,
    upper: string | undefined,
    inclusive: boolean,
    lower?: string | null,
  ): Promise<{ entries: Entry[]; lo: string | null }> {
    const streams = partitions.map((partition) => ({
      ...partition,
      buffer: [] as Entry[],
      from: undefined as StatusIndexPosition | undefined,
      ended: false,
    }));
    const fill = async (stream: (typeof streams)[number]) => {
      const page = await this.#reader.statusPage(stream.policy, stream.name, {
        limit: Math.min(WINDOW_READ_PAGE, size + 1),
        ...(stream.from === undefined ? {} : { after: stream.from }),
        ...(upper === undefined ? {} : { upper: { at: upper, inclusive } }),
        ...(typeof lower === "string" ? { lower } : {}),
      });
      this.read += page.read;
      // An item the schema does not know (written by a newer version) is not offered for review.
      stream.buffer.push(...page.entries);
      stream.from = page.last;
      if (page.last === undefined) stream.ended = true;
    };
    const taken: Entry[] = [];
    for (;;) {
      const hungry = streams.find((stream) => stream.buffer.length === 0 && !stream.ended);
      if (hungry !== undefined) {
        await fill(hungry);
        continue;
      }
      let newest: (typeof streams)[number] | undefined;
      for (const stream of streams) {
        const head = stream.buffer[0];
        if (
          head !== undefined &&
          (newest === undefined || head.updatedAt > (newest.buffer[0]?.updatedAt ?? ""))
        )
          newest = stream;
      }
      const head = newest?.buffer[0];
      if (newest === undefined || head === undefined) return { entries: taken, lo: lower ?? null };
      const lastTime = taken[taken.length - 1]?.updatedAt;
      // A full window takes only the ties of its oldest time, then stops there.
      if (taken.length >= size && head.updatedAt !== lastTime)
        return { entries: taken, lo: lastTime ?? null };
      newest.buffer.shift();
      taken.push(head);
    }
  }
}
