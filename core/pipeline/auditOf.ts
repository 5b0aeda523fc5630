import { createHash } from "node:crypto";
import { AUDIT_QUEUE, type Outcome } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";

/** What the audit sampling reads of a policy. */
export type AuditPolicy = Pick<Policy, "name" | "auditRate"> & { auditStrata?: Policy["auditStrata"] };

/** The audit mark an audited item's outcome records (`Outcome["audit"]`). */
export type AuditMark = NonNullable<Outcome["audit"]>;

/**
 * The item's audit draw in [0, 1): the first 48 bits of sha256(`<policy>\n<id>`) over 2^48. A
 * hash, not a random number, so a redelivered or resubmitted item gets the same draw and is
 * audited exactly when its first delivery was; sha256 spreads any ids evenly over [0, 1).
 */
export function auditDraw(policyName: string, id: string): number {
  const digest = createHash("sha256").update(`${policyName}\n${id}`, "utf8").digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/**
 * An item's confidence for `audit_strata`: the lowest probability among the answers the model
 * gave (`source: "model"`: a rule's answer is the policy's own, not the model's doubt). 1 when the
 * model gave none (the item falls in the last stratum).
 */
export function auditConfidence(answers: Outcome["answers"]): number {
  let confidence = 1;
  for (const answer of Object.values(answers ?? {}))
    if (answer.source === "model") confidence = Math.min(confidence, answer.probability);
  return confidence;
}

/**
 * The audit mark of an item of `policy`, or undefined when its draw is not below its rate. The
 * rate is the policy's `audit_rate`, or with `audit_strata` the rate of the first stratum whose
 * `below` exceeds the item's `confidence` (the last stratum takes the rest). The same draw decides
 * in every case, so an item is audited with exactly the recorded `rate`, and the same item with
 * the same confidence is always audited or never.
 *
 * @param confidence the item's {@link auditConfidence}; only read with `audit_strata`
 */
export function auditOf(policy: AuditPolicy, id: string, confidence = 1): AuditMark | undefined {
  const strata = policy.auditStrata;
  if (strata === undefined || strata.length === 0) {
    if (!(policy.auditRate > 0)) return undefined;
    const draw = auditDraw(policy.name, id);
    return draw < policy.auditRate ? { rate: policy.auditRate, draw } : undefined;
  }
  const index = strata.findIndex((stratum) => stratum.below === undefined || confidence < stratum.below);
  const stratum = strata[index];
  if (stratum === undefined || !(stratum.rate > 0)) return undefined;
  const draw = auditDraw(policy.name, id);
  if (!(draw < stratum.rate)) return undefined;
  return {
    rate: stratum.rate,
    draw,
    stratum: {
      index,
      ...(stratum.below === undefined ? {} : { below: stratum.below }),
      confidence,
    },
  };
}

/**
 * A `decided` outcome the policy's audit sampling picks (`audit_rate`, or `audit_strata` by the
 * outcome's {@link auditConfidence}), marked as an audit item: `audit` set (with its probability
 * of being audited, `rate`) and filed under `<policy>#audit` of the by-status index, the review
 * queue's audit partition. Its status and answers stay: the automated decision stands, a person
 * only labels it. Other statuses are returned as they are (a fallback goes to review anyway; a
 * rule's answer is the policy's).
 */
export function markAudit(outcome: Outcome, policy: AuditPolicy): Outcome {
  if (outcome.status !== "decided") return outcome;
  const audit = auditOf(policy, outcome.id, auditConfidence(outcome.answers));
  return audit === undefined
    ? outcome
    : { ...outcome, audit, policy_status: `${outcome.policy}#${AUDIT_QUEUE}` };
}
