import { Duration } from "aws-cdk-lib";
import { EventBus, type IEventBus, Rule } from "aws-cdk-lib/aws-events";
import { SqsQueue } from "aws-cdk-lib/aws-events-targets";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";

/** Props of {@link IncidentRule}. */
export interface IncidentRuleProps {
  /** Name of the bus the incidents are put on (`default` for the account's default bus). */
  busName: string;
  /** `source` of the incident events. */
  source: string;
  /** `detail-type` of the incident events. */
  detailType: string;
  /** The queue the events go to (the stack gives the interactive lane's): the whole event becomes the message body, which a policy maps to a work item. */
  queue: IQueue;
  /** Where events that cannot be delivered after EventBridge's retries go. */
  deadLetterQueue: IQueue;
}

/**
 * Incident prioritisation: an EventBridge rule that puts every event of the configured `source` and
 * `detail-type` on the given queue (the stack gives the interactive lane's) unchanged (the decide function maps it to a work item through the
 * policy's `events` mapping). The target's queue policy is added for the rule only.
 */
export class IncidentRule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: IncidentRuleProps) {
    super(scope, id);
    const bus: IEventBus = EventBus.fromEventBusName(this, "Bus", props.busName);
    this.rule = new Rule(this, "Rule", {
      eventBus: bus,
      description: `Incident events (${props.source} / ${props.detailType}) to their lane's work queue`,
      eventPattern: { source: [props.source], detailType: [props.detailType] },
    });
    this.rule.addTarget(
      new SqsQueue(props.queue, {
        deadLetterQueue: props.deadLetterQueue,
        retryAttempts: 20,
        maxEventAge: Duration.hours(24),
      }),
    );
  }
}
