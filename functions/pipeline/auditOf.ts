import { createHash } from "node:crypto";
import { AUDIT_QUEUE, type Outcome } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";

/**
 * The item's audit draw in [0, 1): the first 48 bits of sha256(`<policy>\n<id>`) over 2^48. A
 * hash, not a random number, so a redelivered or resubmitted item gets the same draw and is
 * audited exactly when its first delivery was; sha256 spreads any ids evenly over [0, 1).
 */
export function auditDraw(policyName: string, id: string): number {
  const digest = createHash("sha256").update(`${policyName}\n${id}`, "utf8").digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The audit mark of an item of `policy`, or undefined when its draw is not below the policy's `audit_rate`. */
export function auditOf(
  policy: Pick<Policy, "name" | "auditRate">,
  id: string,
): { rate: number; draw: number } | undefined {
  if (!(policy.auditRate > 0)) return undefined;
  const draw = auditDraw(policy.name, id);
  return draw < policy.auditRate ? { rate: policy.auditRate, draw } : undefined;
}

/**
 * A `decided` outcome the policy's `audit_rate` picks, marked as an audit item: `audit` set and
 * filed under `<policy>#audit` of the by-status index, the review queue's audit partition. Its
 * status and answers stay: the automated decision stands, a person only labels it. Other statuses
 * are returned as they are (a fallback goes to review anyway; a rule's answer is the policy's).
 */
export function markAudit(outcome: Outcome, policy: Pick<Policy, "name" | "auditRate">): Outcome {
  if (outcome.status !== "decided") return outcome;
  const audit = auditOf(policy, outcome.id);
  return audit === undefined
    ? outcome
    : { ...outcome, audit, policy_status: `${outcome.policy}#${AUDIT_QUEUE}` };
}
