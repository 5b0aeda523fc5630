import { type StoredOutcome, StoredOutcomeSchema } from "../../contract/outcome/OutcomeSchema.js";
import { MalformedOutcomeError } from "./errors.js";

/**
 * Validates an item read from the outcomes table against the stored outcome schema.
 * @throws MalformedOutcomeError naming the item's key and what does not match.
 */
export function readStoredOutcome(item: Record<string, unknown>, tableName: string): StoredOutcome {
  const parsed = StoredOutcomeSchema.safeParse(item);
  if (parsed.success) return parsed.data;
  throw new MalformedOutcomeError(
    tableName,
    { policy: item.policy, id: item.id },
    parsed.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(item)"}: ${issue.message}`),
    { cause: parsed.error },
  );
}
