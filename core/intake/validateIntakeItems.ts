import type { ItemProblem } from "../../contract/intake/index.js";
import { type WorkItemInput, WorkItemSchema } from "../../contract/workItem/WorkItemSchema.js";
import { InvalidItemsError } from "./errors.js";
import type { RawIntakeItem } from "./readIntakeBody.js";

/** An item that passed the work item's schema, with its text as sent. */
export interface ValidIntakeItem {
  index: number;
  text: string;
  item: WorkItemInput;
}

/**
 * Validates every item with the work item's schema (`WorkItemSchema`, the one the decide function
 * applies) and refuses an id that repeats within the request (its second copy could only be a
 * duplicate). All problems of all items are collected before anything is refused, so one answer
 * names every field to fix.
 *
 * @throws InvalidItemsError listing each problem: the item's index, its id when readable, the
 *   field's path and the rule. Nothing is sent when any item is invalid.
 */
export function validateIntakeItems(items: readonly RawIntakeItem[]): ValidIntakeItem[] {
  const problems: ItemProblem[] = [];
  const valid: ValidIntakeItem[] = [];
  const firstOfKey = new Map<string, number>();
  for (const raw of items) {
    const parsed = WorkItemSchema.safeParse(raw.value);
    if (!parsed.success) {
      const id = idOf(raw.value);
      for (const issue of parsed.error.issues) {
        const path = issue.path.filter((step): step is string | number => typeof step !== "symbol");
        problems.push({
          index: raw.index,
          ...(id === undefined ? {} : { id }),
          path,
          field: path.length === 0 ? "(item)" : path.map(String).join("."),
          rule: issue.message,
        });
      }
      continue;
    }
    const key = JSON.stringify([parsed.data.policy, parsed.data.id]);
    const first = firstOfKey.get(key);
    if (first !== undefined) {
      problems.push({
        index: raw.index,
        id: parsed.data.id,
        path: ["id"],
        field: "id",
        rule: `repeats item ${first}'s id under the same policy: each item of a request needs its own id`,
      });
      continue;
    }
    firstOfKey.set(key, raw.index);
    valid.push({ index: raw.index, text: raw.text, item: parsed.data });
  }
  if (problems.length > 0) {
    const invalid = new Set(problems.map((problem) => problem.index)).size;
    throw new InvalidItemsError(
      `${invalid} of ${items.length} item(s) are invalid; nothing was sent: fix the fields listed in problems and send the request again`,
      { problems },
    );
  }
  return valid;
}

function idOf(value: unknown): string | undefined {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === "string" ? id : undefined;
}
