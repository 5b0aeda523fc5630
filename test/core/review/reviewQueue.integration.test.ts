/**
 * The review queue through the console's HTTP API (the local server of `decisions up`) on
 * DynamoDB Local with the real outcomes table: paging lists every waiting item exactly once
 * whatever the page size, also when many items share one `updated_at`, and a filtered request
 * reads a bounded number of index entries however long the queue is, continuing with `next`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import {
  type QueryReads as Reads,
  type ReviewConsoleTables,
  type ServeOptions,
  startReviewConsoleTables,
} from "../../support/startReviewConsoleTables.js";
import { waitingOutcome } from "../../support/waitingOutcome.js";

interface QueueAnswer {
  items: { policy: string; id: string; updated_at: string; audit?: boolean }[];
  next?: string;
  read: number;
  cut?: boolean;
}

describe("the review queue's paging through the console's HTTP API (DynamoDB Local)", () => {
  let local: ReviewConsoleTables;

  before(async () => {
    local = await startReviewConsoleTables();
  });

  after(async () => {
    await local?.stop();
  });

  /** A fresh outcomes table holding `outcomes`, served by a console with these options. */
  async function serve(outcomes: readonly StoredOutcome[], options: ServeOptions = {}): Promise<string> {
    return (await local.serve(outcomes, options)).url;
  }

  /** One queue request, with the index entries it read. */
  async function page(url: string, query: Record<string, string>): Promise<QueueAnswer & { reads: Reads }> {
    const before = { ...local.reads };
    const answer = await fetch(`${url}api/queue?${new URLSearchParams(query)}`);
    assert.equal(answer.status, 200, await answer.clone().text());
    const body = (await answer.json()) as QueueAnswer;
    return {
      ...body,
      reads: { queries: local.reads.queries - before.queries, scanned: local.reads.scanned - before.scanned },
    };
  }

  /** Every page of a listing, following `next` ("Load more") until there is none. */
  async function listAll(
    url: string,
    query: Record<string, string>,
  ): Promise<(QueueAnswer & { reads: Reads })[]> {
    const pages: (QueueAnswer & { reads: Reads })[] = [];
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

  it("lists 30 items that share one updated_at exactly once at page size 10", async () => {
    const at = "2026-12-01T10:00:00.000Z";
    const outcomes = Array.from({ length: 30 }, (_, index) =>
      waitingOutcome("ticket-routing", `same-${String(index).padStart(2, "0")}`, at),
    );
    const url = await serve(outcomes);

    const pages = await listAll(url, { limit: "10" });

    const listed = keysOf(pages);
    assert.equal(new Set(listed).size, listed.length, `no item twice: ${listed.join(" ")}`);
    assert.deepEqual(
      [...listed].sort(),
      outcomes.map((outcome) => `${outcome.policy}/${outcome.id}`).sort(),
      "every one of the 30 items is listed",
    );
    assert.deepEqual(
      pages.map((answer) => answer.items.length),
      [10, 10, 10],
    );
  });

  it("lists every waiting item exactly once, newest first, at every page size, across policies, statuses and shared times", async () => {
    // 74 items over two policies and both waiting partitions, on only 6 distinct times.
    const times = Array.from({ length: 6 }, (_, index) => `2026-12-01T10:00:0${index}.000Z`);
    const outcomes = Array.from({ length: 74 }, (_, index) =>
      waitingOutcome(
        index % 3 === 0 ? "incident-priority" : "ticket-routing",
        `item-${String(index).padStart(2, "0")}`,
        times[(index * 7) % times.length] as string,
        { audit: index % 4 === 0 },
      ),
    );
    const url = await serve(outcomes);
    const expected = outcomes.map((outcome) => `${outcome.policy}/${outcome.id}`).sort();

    for (const limit of [1, 7, 10, 25, 74, 100]) {
      const pages = await listAll(url, { limit: String(limit) });

      const listed = keysOf(pages);
      assert.equal(new Set(listed).size, listed.length, `page size ${limit}: no item twice`);
      assert.deepEqual([...listed].sort(), expected, `page size ${limit}: every item`);
      const order = pages.flatMap((answer) => answer.items.map((item) => item.updated_at));
      assert.deepEqual(order, [...order].sort().reverse(), `page size ${limit}: newest first`);
      assert.ok(
        pages.every((answer, index) => index === pages.length - 1 || answer.items.length === limit),
        `page size ${limit}: every page but the last is full`,
      );
    }
  });

  it("reads a bounded number of entries per filtered request, however long the queue, and continues with next", async () => {
    // 600 waiting items; every 37th also has `priority` open.
    const outcomes = Array.from({ length: 600 }, (_, index) =>
      waitingOutcome(
        "ticket-routing",
        `many-${String(index).padStart(3, "0")}`,
        new Date(Date.UTC(2026, 11, 1, 0, 0, index)).toISOString(),
        {
          alsoPriority: index % 37 === 0,
        },
      ),
    );
    const maxRead = 100;
    const url = await serve(outcomes, { queueMaxRead: maxRead, queueReadPageSize: 50 });

    // needs_human is a question of ticket-routing that no item here leaves open: nothing matches.
    const first = await page(url, { question: "needs_human", limit: "1" });
    assert.ok(first.reads.scanned <= maxRead, `the first request read ${first.reads.scanned} entries`);
    assert.deepEqual(first.items, []);
    assert.equal(first.cut, true, "the page says the read bound cut it");
    assert.ok(first.next !== undefined, "and gives a cursor to continue");
    assert.ok(first.read <= maxRead);

    const none = await listAll(url, { question: "needs_human", limit: "1" });
    assert.deepEqual(keysOf(none), []);
    for (const answer of none) assert.ok(answer.reads.scanned <= maxRead, `read ${answer.reads.scanned}`);
    assert.ok(none.length >= 600 / maxRead, `${none.length} requests walked the 600 entries`);
    assert.equal(none.at(-1)?.next, undefined, "the listing ends");

    const sparse = await listAll(url, { question: "priority", limit: "5" });
    for (const answer of sparse) assert.ok(answer.reads.scanned <= maxRead, `read ${answer.reads.scanned}`);
    const matching = outcomes
      .filter((outcome) => outcome.answers?.priority !== undefined)
      .map((outcome) => `${outcome.policy}/${outcome.id}`)
      .reverse();
    assert.deepEqual(keysOf(sparse), matching, "Load more finds every match once, newest first");

    const unfiltered = await page(url, { limit: "25" });
    assert.equal(unfiltered.items.length, 25);
    assert.equal(unfiltered.cut, undefined);
    assert.ok(
      unfiltered.reads.scanned <= 26,
      `an unfiltered page reads its own size: ${unfiltered.reads.scanned}`,
    );
  });

  it("refuses a cursor it did not write, or one of another listing, with 400", async () => {
    const at = "2026-12-01T10:00:00.000Z";
    const url = await serve(
      Array.from({ length: 3 }, (_, index) => waitingOutcome("ticket-routing", `c-${index}`, at)),
    );
    const first = await page(url, { limit: "1" });
    assert.ok(first.next !== undefined);
    for (const before of [
      "not-a-cursor",
      Buffer.from(JSON.stringify({ v: 2, p: { "ticket-routing#fallback": ["", "x"] } })).toString(
        "base64url",
      ),
    ]) {
      const answer = await fetch(`${url}api/queue?${new URLSearchParams({ before })}`);
      assert.equal(answer.status, 400, before);
    }
    const other = await fetch(
      `${url}api/queue?${new URLSearchParams({ before: first.next, policy: "ticket-routing" })}`,
    );
    assert.equal(other.status, 400, "a cursor of all policies does not continue one policy's listing");
    assert.match(((await other.json()) as { error: string }).error, /another listing/);
  });
});
