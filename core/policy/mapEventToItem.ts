import { celToJson } from "./celToJson.js";
import { EventMappingError } from "./errors.js";
import type { CelProgram, CompiledEventMapping, Policy } from "./Policy.js";
import type { JsonValue, WorkItem } from "./types.js";

/**
 * The first of `policy`'s mappings whose `source` and `detail-type` equal the event's, or
 * undefined (not an EventBridge-shaped object, or no mapping matches).
 */
export function findEventMapping(policy: Policy, event: unknown): CompiledEventMapping | undefined {
  if (typeof event !== "object" || event === null || Array.isArray(event)) return undefined;
  const { source, "detail-type": detailType } = event as { source?: unknown; "detail-type"?: unknown };
  if (typeof source !== "string" || typeof detailType !== "string") return undefined;
  return policy.events.find((mapping) => mapping.source === source && mapping.detailType === detailType);
}

/**
 * Builds the work item a mapping makes of an event: `id` (a non-empty string), `state` (any JSON
 * value), `facts` (a map, when the mapping has them; checked later with the policy's facts),
 * `submitted_at` = the event's `time` when it is a string.
 *
 * @throws EventMappingError when an expression fails or gives a value of the wrong kind
 */
export function mapEventToItem(policy: Policy, mapping: CompiledEventMapping, event: object): WorkItem {
  const context = { event };
  const id = evaluate(policy, "id", mapping.program.id, context);
  if (typeof id !== "string" || id === "") {
    throw new EventMappingError(policy.name, "id", `gave ${JSON.stringify(id)}, not a non-empty string`);
  }
  const state = evaluate(policy, "state", mapping.program.state, context);
  const item: WorkItem = { id, policy: policy.name, state };
  if (mapping.program.facts !== undefined) {
    const facts = evaluate(policy, "facts", mapping.program.facts, context);
    if (typeof facts !== "object" || facts === null || Array.isArray(facts)) {
      throw new EventMappingError(policy.name, "facts", `gave ${JSON.stringify(facts)}, not a map`);
    }
    item.facts = facts;
  }
  const time = (event as { time?: unknown }).time;
  if (typeof time === "string") item.submitted_at = time;
  return item;
}

function evaluate(
  policy: Policy,
  field: "id" | "state" | "facts",
  program: CelProgram,
  context: Record<string, unknown>,
): JsonValue {
  let result: unknown;
  try {
    result = program(context);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    throw new EventMappingError(policy.name, field, message, { cause: error });
  }
  try {
    return celToJson(result);
  } catch (error) {
    throw new EventMappingError(policy.name, field, (error as Error).message, { cause: error });
  }
}
