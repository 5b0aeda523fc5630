import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { type Outcome, OutcomeSchema } from "../../contract/outcome/OutcomeSchema.js";
import { classifyStoreError } from "./classifyStoreError.js";
import { OutcomeAlreadyRecordedError } from "./errors.js";

/**
 * The one write-once Put of an outcome: only where none stands for its (policy, id)
 * (`attribute_not_exists(id)`), returning the one that stands when the condition fails (`ALL_OLD`).
 * Sent alone by {@link putOutcomeOnce}, and as an item of the job ledger's transaction that counts
 * a job's line with its outcome (`{ Put: writeOnceOutcomePut(table, outcome) }`).
 *
 * @example
 * new TransactWriteCommand({ TransactItems: [{ Put: writeOnceOutcomePut("outcomes", outcome) }, lineCount] });
 */
export function writeOnceOutcomePut(tableName: string, outcome: Outcome) {
  return {
    TableName: tableName,
    Item: outcome,
    ConditionExpression: "attribute_not_exists(#id)",
    ExpressionAttributeNames: { "#id": "id" },
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
  };
}

/**
 * The outcome that stands, from the item a failed condition returned in attribute-value form
 * (`ReturnValuesOnConditionCheckFailure: ALL_OLD` returns that form even through the document
 * client): the stored item as it is, and as an outcome when it has the schema's shape.
 */
export function standingOutcomeOf(
  raw: Record<string, AttributeValue> | undefined,
): { item: Record<string, unknown>; outcome: Outcome | undefined } | undefined {
  if (raw === undefined) return undefined;
  const item = unmarshall(raw);
  const parsed = OutcomeSchema.safeParse(item);
  return { item, outcome: parsed.success ? parsed.data : undefined };
}

/**
 * Translates an error of a conditional write of the outcome (policy, id): a failed condition
 * becomes {@link OutcomeAlreadyRecordedError} carrying what stands (parsed when it is an outcome);
 * anything else what {@link classifyStoreError} makes of it.
 */
export function translateOutcomeWriteError(
  error: unknown,
  tableName: string,
  policy: string,
  id: string,
): Error {
  if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") {
    const standing = standingOutcomeOf((error as { Item?: Record<string, AttributeValue> }).Item);
    return new OutcomeAlreadyRecordedError(policy, id, standing && (standing.outcome ?? standing.item), {
      cause: error,
    });
  }
  return classifyStoreError(error, tableName);
}

/**
 * Writes an outcome once ({@link writeOnceOutcomePut}), one attempt: the caller's retry policy
 * wraps it.
 *
 * @throws OutcomeAlreadyRecordedError when one stands for its (policy, id) (carrying it).
 * @throws what {@link classifyStoreError} makes of any other failure.
 */
export async function putOutcomeOnce(
  client: DynamoDBDocumentClient,
  tableName: string,
  outcome: Outcome,
): Promise<void> {
  try {
    await client.send(new PutCommand(writeOnceOutcomePut(tableName, outcome)));
  } catch (error) {
    throw translateOutcomeWriteError(error, tableName, outcome.policy, outcome.id);
  }
}
