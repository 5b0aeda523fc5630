import type { RemovalPolicy } from "aws-cdk-lib";
import { AttributeType, type Table } from "aws-cdk-lib/aws-dynamodb";
import { EventBus } from "aws-cdk-lib/aws-events";
import { CfnPipe } from "aws-cdk-lib/aws-pipes";
import type { Queue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { FAILURE_RECORD_TTL_ATTRIBUTE } from "../../contract/failures/FailureRecordSchema.js";
import { OUTCOMES_STATUS_INDEX, OUTCOMES_TABLE_KEYS } from "../../contract/outcome/outcomesTableKeys.js";
import { recordTable } from "./recordTable.js";
import { streamPipeParts, streamSourceParameters } from "./streamPipeParts.js";

/** Props of {@link OutcomesTable}. */
export interface OutcomesTableProps {
  /**
   * What `cdk destroy` (or a replacement) does with the table: `RETAIN_ON_UPDATE_OR_DELETE` keeps it
   * (and turns deletion protection on) except when its first create fails; `DESTROY` deletes it.
   */
  removalPolicy: RemovalPolicy;
  /** Name of the EventBridge bus the outcomes are published to. */
  busName: string;
}

/**
 * The stream records the Pipe publishes: inserts and modifications of outcomes. A failure record
 * (contract/failures, in the same table under its own key prefix) carries `record_kind`, which no
 * outcome has, and is left out: it is no outcome.
 */
export const OUTCOME_EVENTS_PATTERN = {
  eventName: ["INSERT", "MODIFY"],
  dynamodb: { NewImage: { record_kind: { S: [{ exists: false }] } } },
};

/** `source` of the events the Pipe puts on the outcomes bus. */
export const OUTCOME_EVENT_SOURCE = "decisions.outcomes";

/** `detail-type` of the events the Pipe puts on the outcomes bus (detail: the DynamoDB stream record). */
export const OUTCOME_EVENT_DETAIL_TYPE = "Decision Outcome Recorded";

/**
 * The outcomes table (keys and review index as `core/outcomes/outcomesTable.ts` defines them):
 * on-demand, point-in-time recovery, encrypted with the AWS-managed key, a NEW_AND_OLD_IMAGES
 * stream; and the stream published to an EventBridge bus by a Pipe (no code), inserts and
 * modifications only, records that cannot be delivered kept in a queue.
 *
 * Subscribers match on `source` {@link OUTCOME_EVENT_SOURCE} and, e.g.,
 * `detail.dynamodb.NewImage.status.S`.
 */
export class OutcomesTable extends Construct {
  readonly table: Table;
  /** ARN of the `by-status` index (the human review queue). */
  readonly statusIndexArn: string;
  readonly bus: EventBus;
  readonly pipe: CfnPipe;
  /** Stream records the Pipe could not deliver. */
  readonly undelivered: Queue;

  constructor(scope: Construct, id: string, props: OutcomesTableProps) {
    super(scope, id);
    this.table = recordTable(this, "Table", {
      partitionKey: { name: OUTCOMES_TABLE_KEYS.partition, type: AttributeType.STRING },
      sortKey: { name: OUTCOMES_TABLE_KEYS.sort, type: AttributeType.STRING },
      // Failure records (contract/failures) expire; outcomes have no such attribute and never do.
      timeToLiveAttribute: FAILURE_RECORD_TTL_ATTRIBUTE,
      removalPolicy: props.removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: OUTCOMES_STATUS_INDEX.name,
      partitionKey: { name: OUTCOMES_STATUS_INDEX.partition, type: AttributeType.STRING },
      sortKey: { name: OUTCOMES_STATUS_INDEX.sort, type: AttributeType.STRING },
    });
    this.statusIndexArn = `${this.table.tableArn}/index/${OUTCOMES_STATUS_INDEX.name}`;

    this.bus = new EventBus(this, "Bus", { eventBusName: props.busName });
    const streamArn = this.table.tableStreamArn;
    if (streamArn === undefined) throw new Error("OutcomesTable: the table has no stream");
    const { undelivered, role } = streamPipeParts(this, {
      streamArn,
      pipeName: "outcomes",
      roleDescription: "Outcomes Pipe: reads the outcomes table's stream, puts events on the outcomes bus",
    });
    this.undelivered = undelivered;
    this.bus.grantPutEventsTo(role);
    this.undelivered.grantSendMessages(role);

    this.pipe = new CfnPipe(this, "Pipe", {
      description: "Publishes outcomes (inserts and modifications) to the outcomes bus",
      roleArn: role.roleArn,
      source: streamArn,
      sourceParameters: streamSourceParameters(this.undelivered, OUTCOME_EVENTS_PATTERN),
      target: this.bus.eventBusArn,
      targetParameters: {
        eventBridgeEventBusParameters: {
          source: OUTCOME_EVENT_SOURCE,
          detailType: OUTCOME_EVENT_DETAIL_TYPE,
        },
      },
    });
    // The role's policy must exist before the Pipe starts reading.
    this.pipe.node.addDependency(role);
  }
}
