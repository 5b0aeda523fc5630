/**
 * The outcome of one line of a batch job, as the decide function writes it: `decided` with one
 * answer, or `rejected` with a reason. Shared by the jobs table's integration tests.
 */
import type { Outcome } from "../../core/outcomes/index.js";

/** The outcome of line `line` (item `id`) of job `jobId`, created and updated at `at`. */
export function jobLineOutcome(
  jobId: string,
  line: number,
  id: string,
  status: Outcome["status"],
  at: string,
): Outcome {
  return {
    policy: "ticket-routing",
    id,
    policy_status: `ticket-routing#${status}`,
    status,
    ...(status === "rejected"
      ? { reason: "bad" }
      : {
          answers: {
            queue: {
              answer: "billing",
              probability: 0.9,
              distribution: { billing: 0.9, legal: 0.1 },
              threshold: 0.5,
              source: "model" as const,
            },
          },
        }),
    rules_fired: [],
    policy_version: 3,
    model: "tiny",
    source: { kind: "sqs", message_id: `m-${line}`, job_id: jobId, line },
    created_at: at,
    updated_at: at,
  };
}
