import type { OutcomesReader, StoredOutcome } from "../../core/outcomes/index.js";

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

/** What {@link readDecidedBy} reads besides the selector: a status and an `updated_at` range. */
export interface DecidedByRange {
  status?: StoredOutcome["status"];
  /** ISO times, inclusive; either may be absent. */
  since?: string;
  until?: string;
}

/**
 * Every outcome of `policy` (of `range.status`, updated from `range.since` to `range.until`, when
 * given) that the selected model or policy version decided: the policy's whole partition is read
 * page by page, since no index names the model or the version.
 */
export async function readDecidedBy(
  table: Pick<OutcomesReader, "all">,
  policy: string,
  selector: RedecideSelector,
  range: DecidedByRange = {},
): Promise<StoredOutcome[]> {
  const { status, since, until } = range;
  const chosen: StoredOutcome[] = [];
  for await (const page of table.all(policy, status === undefined ? {} : { status })) {
    for (const outcome of page) {
      if (!decidedBy(outcome, selector)) continue;
      if (since !== undefined && outcome.updated_at < since) continue;
      if (until !== undefined && outcome.updated_at > until) continue;
      chosen.push(outcome);
    }
  }
  return chosen;
}
