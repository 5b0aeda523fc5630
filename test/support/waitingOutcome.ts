import type { StoredOutcome } from "../../core/outcomes/index.js";

/**
 * An outcome waiting for review as the decide function stores it: on its fallback with `queue`
 * open (and `priority` too with `alsoPriority`), or, with `audit`, a decided item the audit sent
 * to review (`<policy>#audit`).
 */
export function waitingOutcome(
  policy: string,
  id: string,
  at: string,
  kind: { audit?: boolean; alsoPriority?: boolean } = {},
): StoredOutcome {
  const answer = (value: string, source: "fallback" | "model") => ({
    answer: value,
    probability: 0.4,
    distribution: { [value]: 0.4, billing: 0.6 },
    threshold: 0.55,
    source,
  });
  return {
    policy,
    id,
    policy_status: `${policy}#${kind.audit ? "audit" : "fallback"}`,
    status: kind.audit ? "decided" : "fallback",
    answers: {
      queue: answer("triage", kind.audit ? "model" : "fallback"),
      ...(kind.alsoPriority ? { priority: answer("P2", "fallback") } : {}),
    },
    rules_fired: [],
    source: { kind: "sqs", message_id: `m-${id}` },
    created_at: at,
    updated_at: at,
    ...(kind.audit ? { audit: { rate: 1, draw: 0.5 } } : {}),
  };
}
