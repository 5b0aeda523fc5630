import assert from "node:assert/strict";
import { Match, type Template } from "aws-cdk-lib/assertions";

/** A resource of a synthesised template. */
export type Resource = { Type: string; Properties: Record<string, unknown> };

/** An IAM policy statement of a template. */
export type Statement = { Effect?: string; Action: unknown; Resource: unknown; Condition?: unknown };

/** The one resource of `type` (whose properties match `props`); fails when there is not exactly one. */
export function only(template: Template, type: string, props?: Record<string, unknown>): [string, Resource] {
  const found = Object.entries(template.findResources(type, props ? { Properties: props } : undefined));
  assert.equal(found.length, 1, `expected exactly one ${type}, found ${found.length}`);
  return found[0] as [string, Resource];
}

/** Every statement of the inline policies attached to the function's role. */
export function statementsOf(template: Template, fn: Resource): Statement[] {
  const role = (fn.Properties.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
  const policies = Object.values(template.findResources("AWS::IAM::Policy")).filter((policy) =>
    JSON.stringify((policy as Resource).Properties.Roles).includes(`"${role}"`),
  );
  assert.ok(policies.length > 0, "the role has an inline policy");
  return policies.flatMap(
    (policy) => ((policy as Resource).Properties.PolicyDocument as { Statement: Statement[] }).Statement,
  );
}

/** A statement's actions as a list. */
export function actionsOf(statement: { Action: unknown }): string[] {
  return Array.isArray(statement.Action) ? (statement.Action as string[]) : [statement.Action as string];
}

/** Properties that pick the outcomes table (failure records expire; nothing in the jobs table does). */
export const OUTCOMES_TABLE_PROPS = { TimeToLiveSpecification: Match.objectLike({ Enabled: true }) };

/** Properties that pick the jobs table (its sort key, `line`, is a number). */
export const JOBS_TABLE_PROPS = {
  AttributeDefinitions: Match.arrayWith([{ AttributeName: "line", AttributeType: "N" }]),
};

/** Properties that pick the outcomes Pipe among the stack's Pipes. */
export const OUTCOMES_PIPE_PROPS = {
  TargetParameters: Match.objectLike({
    EventBridgeEventBusParameters: Match.objectLike({ Source: "decisions.outcomes" }),
  }),
};

/** Properties that pick the work queue's event source mapping (a stream's has a starting position). */
export const WORK_QUEUE_MAPPING_PROPS = { StartingPosition: Match.absent() };

/** A statement's resources as a list. */
export function resourcesOf(statement: { Resource: unknown }): unknown[] {
  return Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
}

/**
 * The actions the statements allow on `resource` (as the template writes it: a `Fn::GetAtt`, a
 * `Fn::Join`, …), sorted: CDK merges statements with the same actions, so one may name several.
 */
export function actionsOn(statements: readonly Statement[], resource: unknown): string[] {
  const wanted = JSON.stringify(resource);
  const actions = statements
    .filter((statement) => resourcesOf(statement).some((candidate) => JSON.stringify(candidate) === wanted))
    .flatMap(actionsOf);
  return [...new Set(actions)].sort();
}
