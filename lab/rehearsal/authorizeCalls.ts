/**
 * IAM evaluation: @cloud-copilot/iam-simulate (AGPL-3.0-or-later), the most complete evaluator on
 * npm — every condition operator, the action and resource data of each service (an action a
 * resource type does not take is refused), and an explanation of each statement's match. Its
 * licence keeps it out of what this package ships: it is a devDependency, imported only here, and
 * the rehearsal is development tooling (`decisions rehearse` is a dev command, like `bench`). No
 * matcher is written by hand.
 */
import { runSimulation, type Simulation } from "@cloud-copilot/iam-simulate";
import type { DeclaredCall } from "./deployedFunctions.js";

/** An IAM policy document as the template states it, resolved. */
export interface PolicyDocument {
  Version?: string;
  Statement: Record<string, unknown>[];
}

/** The answer for one call. */
export interface CallDecision {
  allowed: boolean;
  /** A statement of the role that names the action but not this resource or its conditions. */
  nearMiss?: Record<string, unknown>;
  /** What the evaluator refused in the request itself (an unknown action, a resource it cannot take). */
  errors?: string[];
}

/**
 * Whether the role with these identity policies may make the call, as IAM decides it for a
 * same-account request.
 */
export async function authorizeCall(
  call: Pick<DeclaredCall, "action" | "resource" | "context">,
  policies: readonly { name: string; document: PolicyDocument }[],
  target: { account: string; partition: string },
  roleName: string,
): Promise<CallDecision> {
  const simulation: Simulation = {
    request: {
      principal: `arn:${target.partition}:iam::${target.account}:role/${roleName}`,
      action: call.action,
      resource: { resource: call.resource, accountId: target.account },
      contextVariables: call.context ?? {},
    },
    identityPolicies: policies.map((policy) => ({ name: policy.name, policy: policy.document })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  } as unknown as Simulation;
  const result = (await runSimulation(simulation, {})) as unknown as SimulationAnswer;
  if (result.resultType === "error" || result.errors !== undefined)
    return { allowed: false, errors: errorsOf(result) };
  if (result.overallResult === "Allowed") return { allowed: true };
  const unmatched = result.result?.analysis?.identityAnalysis?.unmatchedStatements ?? [];
  const near = unmatched.find((entry) => entry.actionMatch === true);
  // The evaluator hands back its own statement object; its JSON is the statement as written.
  return {
    allowed: false,
    ...(near === undefined
      ? {}
      : { nearMiss: JSON.parse(JSON.stringify(near.statement)) as Record<string, unknown> }),
  };
}

/** The parts of iam-simulate's answer read here. */
interface SimulationAnswer {
  resultType?: string;
  overallResult?: string;
  errors?: unknown;
  result?: {
    analysis?: {
      identityAnalysis?: {
        unmatchedStatements?: { actionMatch?: boolean; statement: Record<string, unknown> }[];
      };
    };
  };
}

function errorsOf(result: SimulationAnswer): string[] {
  return [JSON.stringify(result.errors ?? result)];
}
