/**
 * The shadow scenario the shadow report's tests share (the CLI's, the console API's and the
 * console page's): four live outcomes of ticket-routing — T-1, T-2 and T-4 billing (decided), T-3
 * to review (fallback) — one of them answered by a person (T-3: billing, by alice), and a
 * candidate's ("seed-7") shadow records of them: T-1 billing, T-2 technical_support, T-3 billing
 * (decided), T-4 failed (timed out).
 */
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { reviewOutcome, ShadowRecordStore, type ShadowResult } from "../../core/outcomes/index.js";
import { applyPolicy, type Policy } from "../../core/policy/index.js";

/** The policy of the scenario. */
export const SHADOW_SCENARIO_POLICY = "ticket-routing";

/** The candidate of the scenario's shadow records. */
export const SHADOW_SCENARIO_CANDIDATE = { name: "seed-7", model_sha256: "c".repeat(64) };

/** What ticket-routing decides when the model gives `queue` its top label with probability `top`. */
export function ticketRoutingResult(policy: Policy, queue: string, top: number): ShadowResult {
  const labels = (policy.question("queue") as { labels: string[] }).labels;
  const rest = (1 - top) / (labels.length - 1);
  const decision = applyPolicy(
    policy,
    { customer_tier: "pro" },
    {
      queue: {
        type: "choice",
        probabilities: Object.fromEntries(labels.map((label) => [label, label === queue ? top : rest])),
      },
      priority: { type: "choice", probabilities: { P1: 0.05, P2: 0.05, P3: 0.85, P4: 0.05 } },
      needs_human: { type: "noul", noul: 0.02 },
    },
  );
  return { status: decision.status, answers: decision.answers, rules_fired: decision.rules_fired };
}

/** An outcome row (an outcomes table item, or a results file's line) of `result`. */
export function outcomeRow(id: string, result: ShadowResult): Record<string, unknown> {
  return {
    policy: SHADOW_SCENARIO_POLICY,
    id,
    policy_status: `${SHADOW_SCENARIO_POLICY}#${result.status}`,
    ...result,
    source: { kind: "file", line: 1 },
    created_at: "2026-12-01T09:00:00.000Z",
    updated_at: "2026-12-01T09:00:00.000Z",
  };
}

/**
 * Writes the scenario into the outcomes table `tableName` (which must exist): the live outcomes,
 * the person's answer and the shadow records, one second apart from 2026-12-01T10:00:01Z. Resolves
 * to the live outcomes and the candidate's decisions as outcome rows (for a results file each).
 */
export async function seedShadowScenario(input: {
  documents: DynamoDBDocumentClient;
  tableName: string;
  policy: Policy;
}): Promise<{ live: Record<string, unknown>[]; candidate: Record<string, unknown>[] }> {
  const { documents, tableName, policy } = input;
  const live = {
    "T-1": ticketRoutingResult(policy, "billing", 0.95),
    "T-2": ticketRoutingResult(policy, "billing", 0.9),
    "T-3": ticketRoutingResult(policy, "billing", 0.4),
    "T-4": ticketRoutingResult(policy, "billing", 0.9),
  };
  const candidate = {
    "T-1": ticketRoutingResult(policy, "billing", 0.97),
    "T-2": ticketRoutingResult(policy, "technical_support", 0.8),
    "T-3": ticketRoutingResult(policy, "billing", 0.75),
  };
  const liveRows = Object.entries(live).map(([id, result]) => outcomeRow(id, result));
  for (const row of liveRows) await documents.send(new PutCommand({ TableName: tableName, Item: row }));
  await reviewOutcome({
    client: documents,
    tableName,
    policy,
    id: "T-3",
    answers: { queue: "billing" },
    by: "alice",
  });
  let tick = Date.UTC(2026, 11, 1, 10, 0, 0);
  const shadows = new ShadowRecordStore({
    client: documents,
    tableName,
    clock: { now: () => (tick += 1000), sleep: async () => undefined },
  });
  for (const [id, result] of Object.entries(candidate))
    await shadows.put({ policy: SHADOW_SCENARIO_POLICY, id, candidate: SHADOW_SCENARIO_CANDIDATE, result });
  await shadows.put({
    policy: SHADOW_SCENARIO_POLICY,
    id: "T-4",
    candidate: SHADOW_SCENARIO_CANDIDATE,
    failure: new Error("candidate timed out"),
  });
  return {
    live: liveRows,
    candidate: Object.entries(candidate).map(([id, result]) => outcomeRow(id, result)),
  };
}
