import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { OUTCOMES_STATUS_INDEX, OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";
import { streamedTableDefinition } from "../common/streamedTableDefinition.js";

/**
 * The CreateTable input of the outcomes table (PAY_PER_REQUEST, stream NEW_AND_OLD_IMAGES, the
 * {@link OUTCOMES_STATUS_INDEX}), used by tests and the local stack; the CDK table mirrors it.
 */
export function outcomesTableDefinition(name: string): CreateTableCommandInput {
  return streamedTableDefinition(name, {
    keys: { ...OUTCOMES_TABLE_KEYS, sortType: "S" },
    index: { ...OUTCOMES_STATUS_INDEX, projection: { ProjectionType: "ALL" } },
  });
}
