import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from "@aws-sdk/lib-dynamodb";

/**
 * The pages of one DynamoDB Query, read lazily: each page's items (`Items`, or none), the next page
 * asked for with the previous page's `LastEvaluatedKey` as `ExclusiveStartKey` until there is none
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html).
 * Leaving the loop early (`break`) asks for no further page.
 *
 * `query` may be a function, called before each page is asked for, for a query whose input changes
 * between pages (e.g. a `Limit` that shrinks as the caller collects items). A failed Query throws
 * what `translate` makes of its error; the pages' items are the caller's to check.
 *
 * @example
 * for await (const items of queryPages(client, { TableName: "jobs", ... }, (error) => new MyError({ cause: error })))
 *   collected.push(...items);
 */
export async function* queryPages(
  client: DynamoDBDocumentClient,
  query: QueryCommandInput | (() => QueryCommandInput),
  translate: (error: unknown) => Error,
): AsyncGenerator<Record<string, unknown>[]> {
  let after: Record<string, unknown> | undefined;
  do {
    const input = typeof query === "function" ? query() : query;
    let page: QueryCommandOutput;
    try {
      page = await client.send(
        new QueryCommand({ ...input, ...(after !== undefined ? { ExclusiveStartKey: after } : {}) }),
      );
    } catch (error) {
      throw translate(error);
    }
    yield page.Items ?? [];
    after = page.LastEvaluatedKey;
  } while (after !== undefined);
}
