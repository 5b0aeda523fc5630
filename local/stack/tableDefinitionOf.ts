import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import type { TablePlan } from "./LocalStackPlan.js";

/**
 * The CreateTable input of a table as the template declares it (`TablePlan`): its keys, attribute
 * definitions, global secondary indexes and stream, on demand as deployed. TTL is set apart
 * (`UpdateTimeToLive`), as DynamoDB takes it.
 */
export function tableDefinitionOf(name: string, plan: TablePlan): CreateTableCommandInput {
  return {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    KeySchema: plan.keySchema,
    AttributeDefinitions: plan.attributeDefinitions,
    ...(plan.globalSecondaryIndexes.length === 0
      ? {}
      : { GlobalSecondaryIndexes: plan.globalSecondaryIndexes }),
    ...(plan.streamViewType === undefined
      ? {}
      : { StreamSpecification: { StreamEnabled: true, StreamViewType: plan.streamViewType } }),
  };
}
