/**
 * Metric names of the decide function's shadow step (CloudWatch embedded metric format through
 * Powertools, namespace `POWERTOOLS_METRICS_NAMESPACE`, dimensions `service` = `decide` and
 * {@link SHADOW_METRICS.policyDimension}): how often the candidate was asked, how often it gave no
 * result, and how often its result agreed with the live outcome. `decisions shadow report` reads the
 * records themselves; these metrics show the same trend on the dashboard without reading them.
 */
export const SHADOW_METRICS = {
  /** Count per candidate endpoint request (one per group with sampled items, `endpoint: candidate`). */
  calls: "ShadowCalls",
  /** Count per shadow record written (a sampled item: the candidate's result or its failure). */
  records: "ShadowRecords",
  /**
   * 1 per record without a result (no endpoint, a timeout, a 5xx, an unreadable answer), 0 per
   * record with one: the Sum counts failures, the Average is the failure rate.
   */
  failures: "ShadowFailures",
  /** 1 per record whose candidate ran out of its budget (`SHADOW_TIMEOUT_MS`), else 0. */
  timeouts: "ShadowTimeouts",
  /**
   * Per record with a result: the percentage of its questions whose standing answer equals the live
   * outcome's (as `shadow report`'s `agreement` counts them). The Average over a period is the
   * mean agreement of the items shadowed.
   */
  agreement: "ShadowAgreement",
  /** 1 per record with a result whose status differs from the live outcome's (decided → fallback, …), else 0. */
  statusChanges: "ShadowStatusChanges",
  /** Count per sampled item whose shadow record could not be written (the live outcome stands). */
  notWritten: "ShadowRecordsNotWritten",
  /** The dimension that names the item's policy. */
  policyDimension: "policy",
} as const;
