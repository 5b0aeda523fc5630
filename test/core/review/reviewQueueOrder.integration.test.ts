/**
 * The review queue's worth orders (`order=margin|entropy`) through the console's HTTP API on
 * DynamoDB Local: every waiting item is listed exactly once at every page size and window size,
 * across policies, partitions and shared times; within a window the items come by worth; a window
 * as large as the queue orders the whole queue and says so; items that arrive after the first
 * page wait for the next listing instead of being listed twice or pushing others out; audit items
 * come first in a worth order; a forged cursor reads no more index entries than an honest page.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { seededRandom } from "../../evaluation/syntheticForecasts.js";
import {
  type ReviewConsoleTables,
  type ServeOptions,
  startReviewConsoleTables,
} from "../../support/startReviewConsoleTables.js";
import { waitingOutcome } from "../../support/waitingOutcome.js";

interface QueueAnswer {
  items: { policy: string; id: string; updated_at: string; worth?: number; audit?: boolean }[];
  next?: string;
  read: number;
  cut?: boolean;
  order: string;
  window?: { entries: number; complete: boolean; newest?: string; oldest?: string };
}

/** A waiting outcome whose `queue` answer has probability `p` of `triage` (threshold 0.55). */
function withProbability(outcome: StoredOutcome, p: number): StoredOutcome {
  const queue = outcome.answers?.queue;
  if (queue === undefined) return outcome;
  return {
    ...outcome,
    answers: {
      ...outcome.answers,
      queue: {
        ...queue,
        probability: p,
        distribution: { triage: p, billing: (1 - p) * 0.7, other: (1 - p) * 0.3 },
      },
    },
  };
}

describe("the review queue's worth orders through the console's HTTP API (DynamoDB Local)", () => {
  let local: ReviewConsoleTables;

  before(async () => {
    local = await startReviewConsoleTables();
  });

  after(async () => {
    await local?.stop();
  });

  const put = (table: string, outcomes: readonly StoredOutcome[]) => local.put(table, outcomes);

  /** A fresh outcomes table holding `outcomes`, served by a console with these options. */
  async function serve(outcomes: readonly StoredOutcome[], options: ServeOptions = {}) {
    const { url, table } = await local.serve(outcomes, options);
    return { url, table };
  }

  async function page(url: string, query: Record<string, string>): Promise<QueueAnswer> {
    const answer = await fetch(`${url}api/queue?${new URLSearchParams(query)}`);
    assert.equal(answer.status, 200, await answer.clone().text());
    return (await answer.json()) as QueueAnswer;
  }

  async function listAll(url: string, query: Record<string, string>): Promise<QueueAnswer[]> {
    const pages: QueueAnswer[] = [];
    let next: string | undefined;
    do {
      const answer = await page(url, next === undefined ? query : { ...query, before: next });
      pages.push(answer);
      next = answer.next;
      assert.ok(pages.length <= 1000, "the listing ends");
    } while (next !== undefined);
    return pages;
  }

  const keysOf = (pages: readonly QueueAnswer[]) =>
    pages.flatMap((answer) => answer.items.map((item) => `${item.policy}/${item.id}`));

  /** 74 items over two policies and both waiting partitions, on 6 distinct times, with seeded probabilities (some equal). */
  function population(): StoredOutcome[] {
    const random = seededRandom(8);
    const times = Array.from({ length: 6 }, (_, index) => `2026-12-01T10:00:0${index}.000Z`);
    return Array.from({ length: 74 }, (_, index) =>
      withProbability(
        waitingOutcome(
          index % 3 === 0 ? "incident-priority" : "ticket-routing",
          `item-${String(index).padStart(2, "0")}`,
          times[(index * 7) % times.length] as string,
          { audit: index % 4 === 0 },
        ),
        // Every fifth item shares one probability: worth ties, broken by time, policy and id.
        index % 5 === 0 ? 0.5 : 0.3 + 0.6 * random(),
      ),
    );
  }

  for (const order of ["margin", "entropy"] as const) {
    it(`${order}: lists every item exactly once at every page size, by worth within each window`, async () => {
      const outcomes = population();
      const expected = outcomes.map((outcome) => `${outcome.policy}/${outcome.id}`).sort();
      for (const window of [10, 30, 1000]) {
        const { url } = await serve(outcomes, { queueWorthWindow: window });
        for (const limit of [1, 7, 25, 100]) {
          const pages = await listAll(url, { order, limit: String(limit) });

          const listed = keysOf(pages);
          const what = `window ${window}, page size ${limit}`;
          assert.equal(new Set(listed).size, listed.length, `${what}: no item twice`);
          assert.deepEqual([...listed].sort(), expected, `${what}: every item`);
          assert.ok(pages.every((answer) => answer.order === order));
          // Pages of one window (same oldest time) come audit items first, then by worth, ascending.
          const byWindow = new Map<string, number[]>();
          for (const answer of pages) {
            const worths = byWindow.get(answer.window?.oldest ?? "") ?? [];
            worths.push(...answer.items.map((item) => (item.audit ? 0 : 10) + (item.worth ?? Number.NaN)));
            byWindow.set(answer.window?.oldest ?? "", worths);
          }
          for (const worths of byWindow.values())
            assert.deepEqual(
              worths,
              [...worths].sort((a, b) => a - b),
              `${what}: audit items first, then by worth, in a window`,
            );
          if (window >= outcomes.length) {
            assert.equal(byWindow.size, 1, `${what}: one window`);
            assert.ok(
              pages.every((answer) => answer.window?.complete === true),
              `${what}: the order is over the whole queue`,
            );
          } else {
            assert.ok(byWindow.size > 1, `${what}: several windows`);
            assert.ok(
              pages.every((answer) => answer.window?.complete === false),
              `${what}: each page says the order is windowed`,
            );
            assert.ok(
              pages.every((answer) => (answer.window?.entries ?? 0) >= Math.min(window, 1)),
              `${what}: each page reports its window's size`,
            );
          }
        }
      }
    });
  }

  it("margin puts the item nearest its threshold first; items that arrive after the first page wait for the next listing", async () => {
    // Fallbacks only (audit items would come first).
    const outcomes = population().filter((outcome) => outcome.audit === undefined);
    const { url, table } = await serve(outcomes, { queueWorthWindow: 20 });

    const first = await page(url, { order: "margin", limit: "5" });
    const nearest = first.items[0];
    assert.ok(nearest !== undefined);
    // The first window: the 20 newest entries and the ties of the oldest of them.
    const times = outcomes
      .map((outcome) => outcome.updated_at)
      .sort()
      .reverse();
    const oldest = times[19] ?? "";
    const smallest = Math.min(
      ...outcomes
        .filter((outcome) => outcome.updated_at >= oldest)
        .map((outcome) => {
          const queue = outcome.answers?.queue;
          return queue === undefined ? 1 : Math.abs(queue.probability - queue.threshold);
        }),
    );
    assert.equal(nearest.worth, smallest, "the first item is the window's nearest to its threshold");
    assert.equal(first.window?.oldest, oldest);
    // Newer items than any waiting one arrive, some nearer their threshold than all.
    const late = Array.from({ length: 12 }, (_, index) =>
      withProbability(waitingOutcome("ticket-routing", `late-${index}`, "2026-12-02T00:00:00.000Z"), 0.55),
    );
    await put(table, late);
    const rest: QueueAnswer[] = [first];
    let next = first.next;
    while (next !== undefined) {
      const answer = await page(url, { order: "margin", limit: "5", before: next });
      rest.push(answer);
      next = answer.next;
    }
    const listed = keysOf(rest);
    assert.equal(new Set(listed).size, listed.length, "no item twice");
    assert.deepEqual(
      [...listed].sort(),
      outcomes.map((outcome) => `${outcome.policy}/${outcome.id}`).sort(),
      "every item waiting at the first page, and none that came later",
    );
    const again = await page(url, { order: "margin", limit: "5" });
    assert.ok(
      again.items.every((item) => item.id.startsWith("late-")),
      "a new listing starts with the late ones (margin 0)",
    );
  });

  it("refuses an unknown order, and a cursor of another order", async () => {
    const { url } = await serve(population(), { queueWorthWindow: 20 });
    const bad = await fetch(`${url}api/queue?order=oldest`);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: string }).error, /newest, margin, entropy/);
    const margin = await page(url, { order: "margin", limit: "5" });
    assert.ok(margin.next !== undefined);
    const mixed = await fetch(
      `${url}api/queue?${new URLSearchParams({ order: "entropy", before: margin.next })}`,
    );
    assert.equal(mixed.status, 400);
    const newest = await fetch(`${url}api/queue?${new URLSearchParams({ before: margin.next })}`);
    assert.equal(newest.status, 400);
  });

  it("a forged cursor reads no more index entries than an honest page (3,000 waiting items)", async (t) => {
    // 3,000 fallbacks of one policy on distinct times, the console's default window (1,000).
    const start = Date.parse("2026-11-01T00:00:00.000Z");
    const outcomes = Array.from({ length: 3000 }, (_, index) =>
      withProbability(
        waitingOutcome(
          "ticket-routing",
          `bulk-${String(index).padStart(4, "0")}`,
          new Date(start + index * 1000).toISOString(),
        ),
        0.3 + ((index * 37) % 60) / 100,
      ),
    );
    const { url } = await serve(outcomes);
    const measured = async (query: Record<string, string>) => {
      const before = local.reads.scanned;
      const answer = await page(url, query);
      return { answer, scanned: local.reads.scanned - before };
    };
    const honest = await measured({ order: "margin", limit: "25" });
    assert.ok(honest.answer.next !== undefined);
    const second = await measured({ order: "margin", limit: "25", before: honest.answer.next });
    const honestMost = Math.max(honest.scanned, second.scanned);
    const honestReported = Math.max(honest.answer.read, second.answer.read);
    assert.ok(honestMost >= 1000 && honestMost < 1500, `an honest page reads its window (${honestMost})`);

    // The attacker decodes an honest cursor and rewrites its positions (the fingerprint is kept).
    const decoded = JSON.parse(Buffer.from(honest.answer.next, "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
    const forge = (fields: Record<string, unknown>, drop: readonly string[] = []) =>
      Buffer.from(
        JSON.stringify(
          Object.fromEntries(
            Object.entries({ ...decoded, ...fields }).filter(([key]) => !drop.includes(key)),
          ),
        ),
      ).toString("base64url");
    const forged = [
      // "The window reaches the end of every partition."
      forge({ l: null }, ["k"]),
      // The window's oldest time before every item.
      forge({ l: "0000-01-01T00:00:00.000Z" }, ["k"]),
      // A later window whose range is everything.
      forge({ b: "9999-12-31T00:00:00.000Z", l: "0000" }, ["k"]),
      // After an item far down the order: still the whole range.
      forge({ l: "0" }),
      forge({ a: "9999-12-31T00:00:00.000Z", l: null }, ["k"]),
    ];
    let total = 0;
    for (const cursor of forged) {
      const { answer, scanned } = await measured({ order: "margin", limit: "1", before: cursor });
      total += scanned;
      assert.ok(
        scanned <= honestMost,
        `a forged cursor read ${scanned} entries; an honest page reads ${honestMost}`,
      );
      assert.ok(
        answer.read <= honestReported,
        `the page reports ${answer.read} entries read; an honest one ${honestReported}`,
      );
      assert.ok((answer.window?.entries ?? 0) <= 1001, "a window is never larger than the window size");
      assert.equal(answer.window?.complete, false, "a window of 1,000 out of 3,000 is not the whole queue");
    }
    t.diagnostic(
      `honest pages read ${honest.scanned} and ${second.scanned} entries; five forged ones ${total}`,
    );
    assert.ok(total <= forged.length * honestMost, `five forged requests read ${total} entries`);
  });
});
