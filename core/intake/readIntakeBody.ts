import { type ItemProblem, MAX_INTAKE_ITEMS } from "../../contract/intake/index.js";
import { JsonTextError } from "../../contract/wire/errors.js";
import { parseJsonText } from "../../contract/wire/parseJsonText.js";
import type { JsonNode } from "../../contract/wire/types.js";
import { IntakeTooLargeError, InvalidItemsError } from "./errors.js";

/** One item of a request body: its place, its JSON text exactly as sent, and its value. */
export interface RawIntakeItem {
  index: number;
  /** The item's JSON text as written in the body (the state's key order and numbers kept). */
  text: string;
  value: unknown;
}

/** A request body read: one item, or a batch. */
export interface IntakeBody {
  form: "item" | "batch";
  items: RawIntakeItem[];
}

/**
 * Reads a front door body: one work item (a JSON object), or a batch `{"items": [...]}` of 1 to
 * {@link MAX_INTAKE_ITEMS}. Each item keeps its text as written, cut from the body, so the state
 * reaches the model exactly as the sender wrote it. Items are not validated here.
 *
 * @throws InvalidItemsError when the body is not JSON, not an object, or `items` is not a
 *   non-empty array; IntakeTooLargeError for more than {@link MAX_INTAKE_ITEMS} items.
 */
export function readIntakeBody(body: string): IntakeBody {
  let root: JsonNode;
  try {
    root = parseJsonText(body);
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    throw invalidBody(`the body is not JSON: ${error.message}`);
  }
  if (root.kind !== "object")
    throw invalidBody('send one work item (a JSON object) or a batch {"items": [...]}');
  const items = root.members.findLast((member) => member.key === "items")?.value;
  if (items === undefined) return { form: "item", items: [itemOf(body, root, 0)] };
  if (root.members.length !== 1)
    throw invalidBody('a batch is {"items": [...]} and nothing else beside "items"');
  if (items.kind !== "array" || items.items.length === 0)
    throw invalidBody('"items" must be a non-empty array of work items');
  if (items.items.length > MAX_INTAKE_ITEMS)
    throw new IntakeTooLargeError(
      `the batch holds ${items.items.length} items; at most ${MAX_INTAKE_ITEMS} are taken per request: split it`,
    );
  return { form: "batch", items: items.items.map((node, index) => itemOf(body, node, index)) };
}

function itemOf(body: string, node: JsonNode, index: number): RawIntakeItem {
  const text = body.slice(node.start, node.end);
  return { index, text, value: JSON.parse(text) };
}

function invalidBody(rule: string): InvalidItemsError {
  const problem: ItemProblem = { index: 0, path: [], field: "(body)", rule };
  return new InvalidItemsError(rule, { problems: [problem] });
}
