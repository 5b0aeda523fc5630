import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import {
  type JsonNode,
  JsonTextError,
  jsonNodeAt,
  jsonValueOf,
  parseJsonText,
  pythonJsonDumpsNode,
} from "../../contract/wire/index.js";
import {
  describeIssues,
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  MAX_POLICY_NAME_BYTES,
  WorkItemSchema,
} from "../../contract/workItem/WorkItemSchema.js";
import { type PayloadSummary, summarizePayload } from "../outcomes/summarizePayload.js";
import {
  checkFacts,
  EventMappingError,
  findReservedTextIn,
  type Policy,
  type PolicySet,
} from "../policy/index.js";
import { originId } from "./originId.js";
import type { ItemOrigin, ReadWorkItem, RejectedItem, WorkItemInput } from "./types.js";

/**
 * Reads one input into a work item ready to be grouped, or a permanent rejection.
 *
 * The body is parsed with the wire module's `parseJsonText`, which keeps offsets, so the state's
 * text is cut out of the body as written (key order and number spelling intact) and sent to the
 * endpoint unchanged. A body is either a work item (`{id, policy, state, facts?, submitted_at?}`,
 * validated with {@link WorkItemSchema}) or an EventBridge event one of the policies maps
 * (`PolicySet.mapEvent`). Facts are checked against the policy here, before any model time is
 * spent. Never throws.
 *
 * - Bytes that are not text (`unreadable`), or not JSON (or a duplicate key, or too deep) →
 *   rejected under `_unparsed`, keyed by its origin's id (`originId`).
 * - Invalid work item → rejected under its policy and id when those are readable strings, else
 *   under `_unparsed` by its origin's id.
 * - Unknown policy, facts that do not match, an event no policy maps or a mapping that fails →
 *   rejected with the reason.
 *
 * @param index - the input's position in the call, kept in the result.
 */
export function parseWorkItem(input: WorkItemInput, index: number, policies: PolicySet): ReadWorkItem {
  const fallbackId = originId(input.origin);
  if (input.unreadable !== undefined) {
    const info: Where = { index, origin: input.origin, payload: summarizePayload(input.body, undefined) };
    return rejected(info, UNPARSED_POLICY, fallbackId, input.unreadable);
  }
  let root: JsonNode;
  try {
    root = parseJsonText(input.body);
  } catch (error) {
    const reason = error instanceof JsonTextError ? error.message : String(error);
    const info: Where = { index, origin: input.origin, payload: summarizePayload(input.body, undefined) };
    return rejected(info, UNPARSED_POLICY, fallbackId, `the message body is not valid JSON: ${reason}`);
  }
  const value = jsonValueOf(root);
  const info: Where = { index, origin: input.origin, payload: summarizePayload(input.body, value) };
  if (isEventBridgeEvent(value)) return parseEvent(info, value, policies);

  const parsed = WorkItemSchema.safeParse(value);
  if (!parsed.success) {
    const { reason, path } = describeIssues(parsed.error);
    const { id, policy } = (typeof value === "object" && value !== null ? value : {}) as Record<
      string,
      unknown
    >;
    // The rejection is stored under the item's own keys only when DynamoDB can hold them.
    const readable = isStorableKey(id, MAX_ITEM_ID_BYTES) && isStorableKey(policy, MAX_POLICY_NAME_BYTES);
    return rejected(
      info,
      readable ? policy : UNPARSED_POLICY,
      readable ? id : fallbackId,
      `invalid work item: ${reason}`,
      { reasonPath: path, policy: readable ? policies.get(policy) : undefined },
    );
  }
  const item = parsed.data;
  const stateNode = jsonNodeAt(root, ["state"]);
  const stateText =
    stateNode === undefined ? JSON.stringify(item.state) : input.body.slice(stateNode.start, stateNode.end);
  const policy = policies.get(item.policy);
  const extras = { stateText, ...(item.submitted_at ? { submittedAt: item.submitted_at } : {}) };
  if (policy === undefined) {
    return rejected(info, item.policy, item.id, unknownPolicy(item.policy, policies), {
      ...extras,
      reasonPath: ["policy"],
      unknownPolicy: true,
    });
  }
  // The facts as parsed, not as the schema returns them: its record drops a "__proto__" key, which
  // checkFacts refuses as undeclared (as ingest does), rather than deciding without it.
  const facts = (value as Record<string, unknown>).facts;
  return withFacts(
    info,
    policy,
    item.id,
    facts,
    stateText,
    stateNode ? pythonJsonDumpsNode(stateNode) : stateText,
    extras,
  );
}

function parseEvent(info: Where, event: EventBridgeShape, policies: PolicySet): ReadWorkItem {
  const fallbackId = originId(info.origin);
  const origin = { source: event.source, detailType: event["detail-type"] };
  let mapped: ReturnType<PolicySet["mapEvent"]>;
  try {
    mapped = policies.mapEvent(event);
  } catch (error) {
    if (!(error instanceof EventMappingError)) throw error;
    const id = isStorableKey(event.id, MAX_ITEM_ID_BYTES) ? event.id : fallbackId;
    return rejected(info, error.policy, id, error.message, {
      reasonPath: ["events", error.field],
      policy: policies.get(error.policy),
      event: origin,
    });
  }
  if (mapped === undefined) {
    return rejected(
      info,
      UNPARSED_POLICY,
      fallbackId,
      `no policy maps EventBridge events with source "${event.source}" and detail-type "${event["detail-type"]}"`,
      { event: origin },
    );
  }
  const { policy, item } = mapped;
  if (!isStorableKey(item.id, MAX_ITEM_ID_BYTES)) {
    return rejected(
      info,
      policy.name,
      fallbackId,
      `the event mapping gave an id that is no storable key (${Buffer.byteLength(item.id)} bytes, at most ${MAX_ITEM_ID_BYTES}; non-empty, no control characters, no lone surrogates)`,
      { reasonPath: ["events", "id"], policy, event: origin },
    );
  }
  // A mapped state is a value CEL built, not text the producer wrote: it is sent as JSON.stringify
  // writes it (integer-like keys first, 2.0 as 2), the same for every delivery of the event.
  const stateText = JSON.stringify(item.state);
  const extras = {
    stateText,
    event: origin,
    ...(item.submitted_at ? { submittedAt: item.submitted_at } : {}),
  };
  return withFacts(
    info,
    policy,
    item.id,
    item.facts,
    stateText,
    pythonJsonDumpsNode(parseJsonText(stateText)),
    extras,
  );
}

function withFacts(
  info: Where,
  policy: Policy,
  id: string,
  facts: unknown,
  stateText: string,
  renderedState: string,
  extras: { stateText: string; submittedAt?: string; event?: { source: string; detailType: string } },
): ReadWorkItem {
  // Chat-control text is refused in every field of a work item, not only where the model reads it
  // (the state): ids and facts are shown to people and downstream systems, and a state that holds
  // it would only be refused by the endpoint after a model call.
  const reserved = findReservedTextIn({
    id,
    facts: facts ?? {},
    state: jsonValueOf(parseJsonText(stateText)),
  })[0];
  if (reserved !== undefined) {
    return rejected(
      info,
      policy.name,
      isStorableKey(id, MAX_ITEM_ID_BYTES) && findReservedTextIn(id).length === 0
        ? id
        : originId(info.origin),
      `${reserved.key ? "a key of " : ""}${reserved.path.join(".")} contains the reserved chat-control text ${JSON.stringify(reserved.token)}`,
      { ...extras, reasonPath: reserved.path, policy },
    );
  }
  const checked = checkFacts(policy, facts);
  if (!checked.ok) {
    return rejected(info, policy.name, id, `facts: ${checked.reason}`, {
      ...extras,
      reasonPath: ["facts", ...checked.path],
      policy,
    });
  }
  return {
    kind: "item",
    ...info,
    policy,
    id,
    facts: checked.facts,
    ...extras,
    stateText,
    renderedState,
  };
}

function rejected(
  where: Where,
  policyName: string,
  id: string,
  reason: string,
  extras: Partial<Omit<RejectedItem, "kind" | "index" | "origin" | "policyName" | "id" | "reason">> = {},
): RejectedItem {
  const result: RejectedItem = { kind: "rejected", ...where, policyName, id, reason };
  for (const [key, value] of Object.entries(extras)) {
    if (value !== undefined) (result as unknown as Record<string, unknown>)[key] = value;
  }
  return result;
}

function unknownPolicy(name: string, policies: PolicySet): string {
  return `unknown policy "${name}" (loaded: ${policies.names().join(", ") || "none"})`;
}

interface EventBridgeShape {
  id?: unknown;
  source: string;
  "detail-type": string;
  detail?: unknown;
}

/** An EventBridge event: an object with string `source` and `detail-type`, and a `detail`. */
function isEventBridgeEvent(value: unknown): value is EventBridgeShape {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  return typeof fields.source === "string" && typeof fields["detail-type"] === "string" && "detail" in fields;
}

/** Where an input stands in the call, where it came from, and its text summarised. */
interface Where {
  index: number;
  origin: ItemOrigin;
  payload: PayloadSummary;
}
