import { LANES, type Lane, LaneSchema } from "../../contract/lanes/lanes.js";
import { StackTemplateError } from "../errors.js";
import type { CfnResource, CfnTemplate } from "./cfnTemplate.js";
import type {
  DefinitionPiece,
  EventSourcePlan,
  FunctionPlan,
  IngestPlan,
  LanePlan,
  LocalStackPlan,
  PseudoParameter,
  QueuePlan,
  RoutePlan,
  StateMachinePlan,
  TablePlan,
} from "./LocalStackPlan.js";

/** SQS's, Lambda's and DynamoDB's defaults for what a template may leave unsaid. */
const SERVICE_DEFAULTS = {
  visibilityTimeoutSeconds: 30,
  messageRetentionSeconds: 345_600,
  maximumMessageBytes: 262_144,
  functionTimeoutSeconds: 3,
  functionMemoryMb: 128,
  sqsBatchSize: 10,
  streamBatchSize: 100,
} as const;

/**
 * Reads what the local stack is built from out of the synthesized template, the one `cdk deploy`
 * sends: each lane's work queue and DLQ (attributes, redrive policy), its decide function (the
 * function whose `LANE` variable names the lane) and the event source mapping between them; every
 * function (timeout, memory, variable names) and mapping (batch size, batching window, maximum
 * concurrency, `ReportBatchItemFailures`, filters); the outcomes and jobs tables the decide
 * functions name (`OUTCOMES_TABLE`, `JOBS_TABLE`) with their keys, indexes, TTL and stream; the
 * ingest path (the S3 "Object Created" rule's key pattern, its state machine's definition and the
 * function that invokes); the routes of the HTTP API (the review console's).
 *
 * @throws {StackTemplateError} when the template lacks one of them (naming what is missing).
 */
export function readStackTemplate(template: CfnTemplate): LocalStackPlan {
  const reader = new TemplateReader(template);
  const functions = Object.fromEntries(
    reader.idsOf("AWS::Lambda::Function").map((id) => [id, reader.functionPlan(id)]),
  );
  const eventSources = Object.fromEntries(
    reader.idsOf("AWS::Lambda::EventSourceMapping").map((id) => [id, reader.eventSourcePlan(id)]),
  );
  const lanes = {} as Record<Lane, LanePlan>;
  for (const lane of LANES) lanes[lane] = reader.lanePlan(lane, Object.values(eventSources));
  const decideEnvironment = reader.environmentOf(lanes.interactive.function.logicalId);
  return {
    lanes,
    functions,
    eventSources,
    tables: {
      outcomes: reader.tablePlan(
        refOf(decideEnvironment.OUTCOMES_TABLE, "the decide function's OUTCOMES_TABLE"),
      ),
      jobs: reader.tablePlan(refOf(decideEnvironment.JOBS_TABLE, "the decide function's JOBS_TABLE")),
    },
    ingest: reader.ingestPlan(),
    consoleRoutes: reader.routePlans(),
  };
}

/** The pseudo parameters a definition may name, which the local stack gives values. */
const PSEUDO_PARAMETERS: readonly string[] = [
  "AWS::Partition",
  "AWS::Region",
  "AWS::AccountId",
  "AWS::URLSuffix",
] satisfies PseudoParameter[];

/** The template's resources read one by one. */
class TemplateReader {
  constructor(private readonly template: CfnTemplate) {}

  idsOf(type: string): string[] {
    return Object.entries(this.template.Resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id]) => id);
  }

  resource(id: string, type: string): CfnResource {
    const resource = this.template.Resources[id];
    if (resource?.Type !== type) throw new StackTemplateError(`the template has no ${type} ${id}`);
    return resource;
  }

  environmentOf(functionId: string): Record<string, unknown> {
    const properties = this.resource(functionId, "AWS::Lambda::Function").Properties ?? {};
    return (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
  }

  functionPlan(id: string): FunctionPlan {
    const properties = this.resource(id, "AWS::Lambda::Function").Properties ?? {};
    return {
      logicalId: id,
      timeoutSeconds: numberOr(properties.Timeout, SERVICE_DEFAULTS.functionTimeoutSeconds),
      memoryMb: numberOr(properties.MemorySize, SERVICE_DEFAULTS.functionMemoryMb),
      environmentNames: Object.keys(this.environmentOf(id)).sort(),
    };
  }

  eventSourcePlan(id: string): EventSourcePlan {
    const properties = this.resource(id, "AWS::Lambda::EventSourceMapping").Properties ?? {};
    const sourceId = getAttOf(properties.EventSourceArn, `${id}'s EventSourceArn`);
    const fromQueue = this.template.Resources[sourceId]?.Type === "AWS::SQS::Queue";
    const filters =
      (properties.FilterCriteria as { Filters?: { Pattern?: unknown }[] } | undefined)?.Filters ?? [];
    return {
      logicalId: id,
      functionId: refOf(properties.FunctionName, `${id}'s FunctionName`),
      sourceId,
      batchSize: numberOr(
        properties.BatchSize,
        fromQueue ? SERVICE_DEFAULTS.sqsBatchSize : SERVICE_DEFAULTS.streamBatchSize,
      ),
      maximumBatchingWindowSeconds: numberOr(properties.MaximumBatchingWindowInSeconds, 0),
      maximumConcurrency: (properties.ScalingConfig as { MaximumConcurrency?: number } | undefined)
        ?.MaximumConcurrency,
      reportBatchItemFailures: ((properties.FunctionResponseTypes as unknown[]) ?? []).includes(
        "ReportBatchItemFailures",
      ),
      filters: filters.map((filter) => String(filter.Pattern)),
    };
  }

  queuePlan(id: string): QueuePlan {
    const properties = this.resource(id, "AWS::SQS::Queue").Properties ?? {};
    const redrive = properties.RedrivePolicy as
      | { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown }
      | undefined;
    return {
      logicalId: id,
      visibilityTimeoutSeconds: numberOr(
        properties.VisibilityTimeout,
        SERVICE_DEFAULTS.visibilityTimeoutSeconds,
      ),
      messageRetentionSeconds: numberOr(
        properties.MessageRetentionPeriod,
        SERVICE_DEFAULTS.messageRetentionSeconds,
      ),
      maximumMessageBytes: numberOr(properties.MaximumMessageSize, SERVICE_DEFAULTS.maximumMessageBytes),
      redrive:
        redrive === undefined
          ? undefined
          : {
              deadLetterQueue: getAttOf(redrive.deadLetterTargetArn, `${id}'s deadLetterTargetArn`),
              maxReceiveCount: Number(redrive.maxReceiveCount),
            },
    };
  }

  lanePlan(lane: Lane, eventSources: readonly EventSourcePlan[]): LanePlan {
    const functionId = this.idsOf("AWS::Lambda::Function").find(
      (id) => LaneSchema.safeParse(this.environmentOf(id).LANE).data === lane,
    );
    if (functionId === undefined) {
      throw new StackTemplateError(
        `no function of the template has LANE=${lane}: the ${lane} lane's decide function is missing`,
      );
    }
    const eventSource = eventSources.find(
      (mapping) =>
        mapping.functionId === functionId &&
        this.template.Resources[mapping.sourceId]?.Type === "AWS::SQS::Queue",
    );
    if (eventSource === undefined) {
      throw new StackTemplateError(
        `the ${lane} lane's decide function ${functionId} has no SQS event source mapping`,
      );
    }
    const queue = this.queuePlan(eventSource.sourceId);
    if (queue.redrive === undefined) {
      throw new StackTemplateError(
        `the ${lane} lane's queue ${queue.logicalId} has no redrive policy (no DLQ)`,
      );
    }
    return {
      queue,
      deadLetterQueue: this.queuePlan(queue.redrive.deadLetterQueue),
      function: this.functionPlan(functionId),
      eventSource,
    };
  }

  ingestPlan(): IngestPlan {
    const ruleId = this.idsOf("AWS::Events::Rule").find((id) => {
      const pattern = this.template.Resources[id]?.Properties?.EventPattern as
        | { source?: unknown[]; "detail-type"?: unknown[] }
        | undefined;
      return (
        pattern?.source?.includes("aws.s3") === true &&
        pattern["detail-type"]?.includes("Object Created") === true
      );
    });
    if (ruleId === undefined)
      throw new StackTemplateError('no rule of the template starts ingest on S3 "Object Created" events');
    const properties = this.resource(ruleId, "AWS::Events::Rule").Properties ?? {};
    const wildcard = (properties.EventPattern as { detail?: { object?: { key?: { wildcard?: unknown }[] } } })
      .detail?.object?.key?.[0]?.wildcard;
    const [prefix = "", suffix = ""] = typeof wildcard === "string" ? wildcard.split("*", 2) : [];
    const stateMachineId = refOf(
      (properties.Targets as { Arn?: unknown }[] | undefined)?.[0]?.Arn,
      `the ingest rule ${ruleId}'s target`,
    );
    const stateMachine = this.stateMachinePlan(stateMachineId);
    const functionId = stateMachine.definition
      .map((piece) => (typeof piece === "object" && "functionArn" in piece ? piece.functionArn : undefined))
      .find((id) => id !== undefined);
    if (functionId === undefined) {
      throw new StackTemplateError(
        `the ingest state machine ${stateMachineId} invokes no function of the template`,
      );
    }
    return { function: this.functionPlan(functionId), stateMachine, prefix, suffix };
  }

  /**
   * A state machine's `DefinitionString` piece by piece: text, pseudo parameters, and functions'
   * ARNs. @throws {StackTemplateError} for anything else in it (another resource's attribute, a
   * definition kept in S3), which the local stack could not give a value.
   */
  stateMachinePlan(id: string): StateMachinePlan {
    const properties = this.resource(id, "AWS::StepFunctions::StateMachine").Properties ?? {};
    const value = properties.DefinitionString;
    const join = (value as { "Fn::Join"?: unknown } | undefined)?.["Fn::Join"];
    const parts: unknown[] =
      typeof value === "string"
        ? [value]
        : Array.isArray(join) && join[0] === "" && Array.isArray(join[1])
          ? join[1]
          : [];
    if (parts.length === 0) {
      throw new StackTemplateError(
        `the state machine ${id} has no DefinitionString the local stack reads (a string, or Fn::Join of pieces with "")`,
      );
    }
    const definition = parts.map((part): DefinitionPiece => {
      if (typeof part === "string") return part;
      const ref = (part as { Ref?: unknown }).Ref;
      if (typeof ref === "string" && PSEUDO_PARAMETERS.includes(ref))
        return { pseudoParameter: ref as PseudoParameter };
      const getAtt = (part as { "Fn::GetAtt"?: unknown })["Fn::GetAtt"];
      if (
        Array.isArray(getAtt) &&
        getAtt[1] === "Arn" &&
        this.template.Resources[String(getAtt[0])]?.Type === "AWS::Lambda::Function"
      )
        return { functionArn: String(getAtt[0]) };
      throw new StackTemplateError(
        `the state machine ${id}'s definition names ${JSON.stringify(part)}, which the local stack does not give a value`,
      );
    });
    return { logicalId: id, definition };
  }

  /**
   * The routes of the template's HTTP API, in the template's order.
   * @throws {StackTemplateError} when routes belong to more than one API (which one the console is
   *   would be a guess).
   */
  routePlans(): RoutePlan[] {
    const ids = this.idsOf("AWS::ApiGatewayV2::Route");
    const apis = new Set(
      ids.map((id) => JSON.stringify(this.resource(id, "AWS::ApiGatewayV2::Route").Properties?.ApiId)),
    );
    if (apis.size > 1) {
      throw new StackTemplateError(
        `the template's routes belong to ${apis.size} APIs (${[...apis].join(", ")}): the local stack serves one, the review console's`,
      );
    }
    return ids.map((id) => {
      const routeKey = this.resource(id, "AWS::ApiGatewayV2::Route").Properties?.RouteKey;
      if (typeof routeKey !== "string")
        throw new StackTemplateError(`the route ${id} has no RouteKey written out`);
      return { logicalId: id, routeKey };
    });
  }

  tablePlan(id: string): TablePlan {
    const properties = this.resource(id, "AWS::DynamoDB::Table").Properties ?? {};
    const ttl = properties.TimeToLiveSpecification as
      | { AttributeName?: string; Enabled?: boolean }
      | undefined;
    const stream = properties.StreamSpecification as
      | { StreamViewType?: TablePlan["streamViewType"] }
      | undefined;
    return {
      logicalId: id,
      keySchema: (properties.KeySchema as TablePlan["keySchema"]) ?? [],
      attributeDefinitions: (properties.AttributeDefinitions as TablePlan["attributeDefinitions"]) ?? [],
      globalSecondaryIndexes:
        (properties.GlobalSecondaryIndexes as TablePlan["globalSecondaryIndexes"]) ?? [],
      timeToLiveAttribute: ttl?.Enabled === true ? ttl.AttributeName : undefined,
      streamViewType: stream?.StreamViewType,
    };
  }
}

function numberOr(value: unknown, fallback: number): number {
  return value === undefined ? fallback : Number(value);
}

function refOf(value: unknown, what: string): string {
  const ref = (value as { Ref?: unknown } | undefined)?.Ref;
  if (typeof ref !== "string")
    throw new StackTemplateError(`${what} is not a reference to a resource of the template`);
  return ref;
}

function getAttOf(value: unknown, what: string): string {
  const getAtt = (value as { "Fn::GetAtt"?: unknown } | undefined)?.["Fn::GetAtt"];
  const id = Array.isArray(getAtt) ? getAtt[0] : undefined;
  if (typeof id !== "string")
    throw new StackTemplateError(`${what} is not an attribute of a resource of the template`);
  return id;
}
