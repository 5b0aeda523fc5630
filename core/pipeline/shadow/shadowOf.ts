import { createHash } from "node:crypto";
import type { PolicyShadow } from "../../policy/index.js";

/**
 * What salts the shadow draw apart from the audit draw (`auditDraw` hashes `<policy>\n<id>`): the
 * two samples are independent, so shadowing a share of items neither favours nor avoids the
 * audited ones.
 */
const SHADOW_SALT = "shadow";

/**
 * The item's shadow draw in [0, 1): the first 48 bits of sha256(`shadow\n<policy>\n<id>`) over
 * 2^48. A hash, so a redelivered or resubmitted item gets the same draw and is shadowed exactly
 * when its first delivery was.
 */
export function shadowDraw(policyName: string, id: string): number {
  const digest = createHash("sha256").update(`${SHADOW_SALT}\n${policyName}\n${id}`, "utf8").digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/**
 * The shadow sample of an item of `policyName`: its rate and draw when the draw is below the
 * section's `rate`, else undefined (as is every item of a rate of 0).
 */
export function shadowOf(
  shadow: Pick<PolicyShadow, "rate">,
  policyName: string,
  id: string,
): { rate: number; draw: number } | undefined {
  if (!(shadow.rate > 0)) return undefined;
  const draw = shadowDraw(policyName, id);
  return draw < shadow.rate ? { rate: shadow.rate, draw } : undefined;
}
