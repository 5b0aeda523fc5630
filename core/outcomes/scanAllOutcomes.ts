import { type DynamoDBDocumentClient, ScanCommand, type ScanCommandOutput } from "@aws-sdk/lib-dynamodb";
import { isFailureRecordKey } from "../../contract/failures/FailureRecordSchema.js";
import type { StoredOutcome } from "../../contract/outcome/OutcomeSchema.js";
import { OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";
import { isShadowRecordKey } from "../../contract/outcome/ShadowRecordSchema.js";
import { errorNameOf } from "../common/tableErrorHint.js";
import { OutcomesTableError } from "./errors.js";
import { readStoredOutcome } from "./readStoredOutcome.js";

/**
 * Every outcome in the table, one Scan page at a time, in no order: the whole table is read
 * (every policy; the failure and shadow records that share it are left out). For a small table
 * such as the local demo's; an operator's reads go through a policy's partition instead
 * (`OutcomesReader`). A module of its own so that no deployed function's bundle reaches a Scan,
 * which none of them is granted.
 *
 * @throws OutcomesTableError, MalformedOutcomeError
 */
export async function* scanAllOutcomes(
  client: DynamoDBDocumentClient,
  tableName: string,
): AsyncGenerator<StoredOutcome[]> {
  let start: Record<string, unknown> | undefined;
  do {
    let page: ScanCommandOutput;
    try {
      page = await client.send(
        new ScanCommand({
          TableName: tableName,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
    } catch (error) {
      throw new OutcomesTableError(tableName, errorNameOf(error), { cause: error });
    }
    yield (page.Items ?? [])
      .filter((item) => !isFailureRecordKey(item[OUTCOMES_TABLE_KEYS.partition]))
      .filter((item) => !isShadowRecordKey(item[OUTCOMES_TABLE_KEYS.partition]))
      .map((item) => readStoredOutcome(item, tableName));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
}
