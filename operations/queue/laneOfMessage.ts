import { DEFAULT_ITEM_LANE, type Lane } from "../../contract/lanes/lanes.js";

/**
 * The lane a message body goes to when the producer names none: its work item's policy's declared
 * `lane`, else {@link DEFAULT_ITEM_LANE} (interactive) — also for an EventBridge event (no
 * `policy`: the deployed incident rule targets the interactive lane) and for a body that is not a
 * JSON object. Never throws.
 *
 * @param policyLanes the lane each policy declares (policies that declare none are left out).
 */
export function laneOfMessage(body: string, policyLanes: ReadonlyMap<string, Lane>): Lane {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    // A body that is not JSON is the decide function's to reject; it travels in the default lane.
    if (error instanceof SyntaxError) return DEFAULT_ITEM_LANE;
    throw error;
  }
  const policy =
    typeof parsed === "object" && parsed !== null ? (parsed as { policy?: unknown }).policy : undefined;
  return (typeof policy === "string" ? policyLanes.get(policy) : undefined) ?? DEFAULT_ITEM_LANE;
}
