/** queryPages: the one loop that pages a DynamoDB Query by its LastEvaluatedKey. */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DynamoDBDocumentClient, QueryCommandInput, QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import { queryPages } from "../../../core/common/index.js";

/** A client that answers each Query with the next of `pages` and records what it was asked. */
function pagedClient(pages: Partial<QueryCommandOutput>[]): {
  client: DynamoDBDocumentClient;
  asked: QueryCommandInput[];
} {
  const asked: QueryCommandInput[] = [];
  const client = {
    send: async (command: { input: QueryCommandInput }) => {
      asked.push(command.input);
      const page = pages[asked.length - 1];
      if (page === undefined) throw new Error("asked for a page past the last");
      return page;
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, asked };
}

const notTranslated = (error: unknown) => new Error("unexpected", { cause: error });

describe("queryPages", () => {
  it("asks for each next page with the previous page's LastEvaluatedKey until there is none", async () => {
    const { client, asked } = pagedClient([
      { Items: [{ id: "a" }], LastEvaluatedKey: { id: "a" } },
      { LastEvaluatedKey: { id: "b" } },
      { Items: [{ id: "c" }] },
    ]);

    const seen: unknown[][] = [];
    for await (const items of queryPages(client, { TableName: "t", Limit: 1 }, notTranslated))
      seen.push(items);

    assert.deepEqual(seen, [[{ id: "a" }], [], [{ id: "c" }]]);
    assert.deepEqual(asked, [
      { TableName: "t", Limit: 1 },
      { TableName: "t", Limit: 1, ExclusiveStartKey: { id: "a" } },
      { TableName: "t", Limit: 1, ExclusiveStartKey: { id: "b" } },
    ]);
  });

  it("makes a query given as a function anew before each page, and asks for no page after a break", async () => {
    const { client, asked } = pagedClient([
      { Items: [{ id: "a" }, { id: "b" }], LastEvaluatedKey: { id: "b" } },
      { Items: [{ id: "c" }], LastEvaluatedKey: { id: "c" } },
      { Items: [{ id: "d" }] },
    ]);
    const ids: unknown[] = [];

    for await (const items of queryPages(
      client,
      () => ({ TableName: "t", Limit: 3 - ids.length }),
      notTranslated,
    )) {
      ids.push(...items.map((item) => item.id));
      if (ids.length >= 3) break;
    }

    assert.deepEqual(ids, ["a", "b", "c"]);
    assert.deepEqual(
      asked.map((input) => input.Limit),
      [3, 1],
    );
  });

  it("throws what translate makes of a failed Query, the failure kept as its cause", async () => {
    const failure = Object.assign(new Error("no table"), { name: "ResourceNotFoundException" });
    const client = {
      send: async () => {
        throw failure;
      },
    } as unknown as DynamoDBDocumentClient;

    await assert.rejects(
      async () => {
        for await (const _ of queryPages(
          client,
          { TableName: "t" },
          (error) => new RangeError("translated", { cause: error }),
        ))
          assert.fail("no page expected");
      },
      (error: unknown) => error instanceof RangeError && error.cause === failure,
    );
  });
});
