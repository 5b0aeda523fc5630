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
export const OUTCOMES_TABLE_PROPS = {
  TimeToLiveSpecification: Match.objectLike({ Enabled: true }),
  // The front door's idempotency table expires its items too, but has no stream.
  StreamSpecification: Match.anyValue(),
};

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

/** One lane of a synthesised stack: its decide function, event source mapping, queue and DLQ. */
export interface LaneResources {
  functionId: string;
  fn: Resource;
  /** The function's SQS event source mapping. */
  mapping: Resource;
  queueId: string;
  queue: Resource;
  deadLetterQueueId: string;
  /** The function's environment variables. */
  variables: Record<string, unknown>;
}

/**
 * The lane's resources, found by structure: the decide function whose `LANE` is `lane`, the one
 * event source mapping of that function, the queue the mapping reads, and the queue its redrive
 * policy names.
 */
export function laneResources(template: Template, lane: string): LaneResources {
  const [functionId, fn] = only(template, "AWS::Lambda::Function", {
    Environment: { Variables: Match.objectLike({ LANE: lane, ENDPOINT_NAME: Match.anyValue() }) },
  });
  const [, mapping] = only(template, "AWS::Lambda::EventSourceMapping", {
    ...WORK_QUEUE_MAPPING_PROPS,
    FunctionName: { Ref: functionId },
  });
  const source = mapping.Properties.EventSourceArn as { "Fn::GetAtt": [string, string] };
  const queueId = source["Fn::GetAtt"][0];
  const queue = template.toJSON().Resources[queueId] as Resource;
  assert.equal(queue.Type, "AWS::SQS::Queue");
  const redrive = queue.Properties.RedrivePolicy as {
    deadLetterTargetArn: { "Fn::GetAtt": [string, string] };
  };
  return {
    functionId,
    fn,
    mapping,
    queueId,
    queue,
    deadLetterQueueId: redrive.deadLetterTargetArn["Fn::GetAtt"][0],
    variables: (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
  };
}
