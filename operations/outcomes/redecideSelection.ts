import type { StoredOutcome } from "../../functions/outcomes/index.js";

/** Which outcomes a redecide takes by what decided them. */
export interface RedecideSelector {
  /** Outcomes whose `model_sha256` is this (the old model). */
  modelSha256?: string;
  /** Outcomes whose `policy_version` is this (compared as text: 3 and "3" are the same). */
  policyVersion?: string;
}

/**
 * Whether the outcome was decided by the selected model and/or policy version (both must hold
 * when both are given). An outcome without the field is never selected.
 */
export function decidedBy(
  outcome: Pick<StoredOutcome, "model_sha256" | "policy_version">,
  selector: RedecideSelector,
): boolean {
  if (
    selector.modelSha256 !== undefined &&
    outcome.model_sha256?.toLowerCase() !== selector.modelSha256.toLowerCase()
  )
    return false;
  if (
    selector.policyVersion !== undefined &&
    (outcome.policy_version === undefined || String(outcome.policy_version) !== selector.policyVersion)
  )
    return false;
  return selector.modelSha256 !== undefined || selector.policyVersion !== undefined;
}
