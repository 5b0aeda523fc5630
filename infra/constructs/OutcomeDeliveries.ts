import { join } from "node:path";
import { Arn, CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, Validations } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { EventField, type IEventBus, Rule, RuleTargetInput } from "aws-cdk-lib/aws-events";
import { SqsQueue } from "aws-cdk-lib/aws-events-targets";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { DEFAULT_DELIVERY_SCHEDULE } from "../../contract/delivery/deliverySchedule.js";
import { DELIVER_SETTINGS, variableOf } from "../../contract/index.js";
import type { PolicyCatalogueEntry } from "../../contract/policy/PolicyCatalogueSchema.js";
import { OUTCOME_EVENT_DETAIL_TYPE, OUTCOME_EVENT_SOURCE } from "./OutcomesTable.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** One target as the CDK app builds it. */
type CatalogueTarget = NonNullable<PolicyCatalogueEntry["deliver"]>[number];

/** Props of {@link OutcomeDeliveries}. */
export interface OutcomeDeliveriesProps {
  /** `functions/deliver/handler.ts`. */
  entry: string;
  projectRoot: string;
  /** The outcomes bus the outcomes Pipe publishes every outcome change on. */
  bus: IEventBus;
  /** The policies deployed; those with a `deliver:` section get their targets. */
  policies: readonly PolicyCatalogueEntry[];
  /** Where each target's DLQ alarm goes. */
  alarmTopic: ITopic;
  logRetention: RetentionDays;
}

/** The deliver function's timeout: a batch of 10 attempts run side by side, each waiting ≤ 10 s. */
export const DELIVER_FUNCTION_TIMEOUT = Duration.seconds(30);

/** Receives of a delivery message before SQS moves it to the DLQ itself: the schedule's attempts and 2 more. */
export const DELIVERY_MAX_RECEIVE_COUNT = DEFAULT_DELIVERY_SCHEDULE.attempts + 2;

/** One target's parts. */
export interface DeliveryTargetParts {
  /** `<policy>/<name>`. */
  key: string;
  rule: Rule;
  queue: Queue;
  deadLetterQueue: Queue;
  alarm: Alarm;
}

/**
 * Delivery of outcomes on AWS (docs/deliveries.md). Per target of a policy's `deliver:` section: a
 * rule on the outcomes bus matching the policy and the target's statuses → the target's SQS
 * delivery queue (the target's key beside the event) → the deliver function, which makes one
 * signed attempt per receive, hides a message that must be retried for the schedule's next wait
 * and puts what it gives up on, with the reason, on the target's DLQ (which the queue's own
 * redrive also feeds after {@link DELIVERY_MAX_RECEIVE_COUNT} receives); an alarm on each DLQ.
 *
 * Not API destinations: their retries re-send the request as it was, for up to 24 hours, so a
 * Standard Webhooks signature made before them would be refused as stale by a receiver after its
 * 5-minute tolerance, and a connection's static credentials sign nothing.
 *
 * A url target's `env:NAME` secret becomes the function's variable NAME, resolved by
 * CloudFormation from the Secrets Manager secret NAME (a dynamic reference: the template holds the
 * reference, never the value); a literal `whsec_…` is refused (it would be written into the
 * template). A bus target gets PutEvents on that bus and nothing else.
 */
export class OutcomeDeliveries extends Construct {
  readonly function: PipelineFunction;
  readonly targets: readonly DeliveryTargetParts[];

  /** Adds the deliveries to a stack when a deployed policy has a `deliver:` section; undefined otherwise. */
  static addTo(
    host: Construct & {
      policies: readonly PolicyCatalogueEntry[];
      outcomes: { bus: IEventBus };
      alarms: { topic: ITopic };
    },
    inputs: { projectRoot: string; logRetention: RetentionDays },
  ): OutcomeDeliveries | undefined {
    if (!host.policies.some((policy) => (policy.deliver?.length ?? 0) > 0)) return undefined;
    return new OutcomeDeliveries(host, "Deliveries", {
      entry: join(inputs.projectRoot, "functions", "deliver", "handler.ts"),
      projectRoot: inputs.projectRoot,
      bus: host.outcomes.bus,
      policies: host.policies,
      alarmTopic: host.alarms.topic,
      logRetention: inputs.logRetention,
    });
  }

  constructor(scope: Construct, id: string, props: OutcomeDeliveriesProps) {
    super(scope, id);
    const entries = props.policies.flatMap((policy) =>
      (policy.deliver ?? []).map((target) => ({ policy: policy.name, target })),
    );
    const secrets = Object.fromEntries(
      entries
        .flatMap(({ policy, target }) => secretVariableOf(policy, target))
        .map((name) => [name, SecretValue.secretsManager(name).unsafeUnwrap()]),
    );
    const targets = entries.map(({ policy, target }) => this.addTarget(policy, target, props));
    this.function = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: DELIVER_FUNCTION_TIMEOUT,
      memorySize: 256,
      logRetention: props.logRetention,
      description:
        "Delivers outcome changes to the policies' deliver targets: signed webhooks or event buses",
      environment: {
        [variableOf(DELIVER_SETTINGS.dlqUrls)]: JSON.stringify(
          Object.fromEntries(targets.map((target) => [target.key, target.deadLetterQueue.queueUrl])),
        ),
        ...secrets,
      },
    });
    for (const target of targets) {
      target.queue.grantConsumeMessages(this.function.role);
      target.deadLetterQueue.grantSendMessages(this.function.role);
      this.function.function.addEventSource(
        new SqsEventSource(target.queue, { batchSize: 10, reportBatchItemFailures: true }),
      );
    }
    const buses = [
      ...new Set(entries.flatMap(({ target }) => (target.bus === undefined ? [] : [target.bus]))),
    ];
    if (buses.length > 0)
      this.function.role.addToPolicy(
        new PolicyStatement({
          actions: ["events:PutEvents"],
          resources: buses.map((bus) => busArnOf(this, bus)),
        }),
      );
    this.targets = targets;
  }

  private addTarget(
    policy: string,
    target: CatalogueTarget,
    props: OutcomeDeliveriesProps,
  ): DeliveryTargetParts {
    const key = `${policy}/${target.name}`;
    const scope = new Construct(this, `${policy}-${target.name}`);
    const deadLetterQueue = new Queue(scope, "DeadLetters", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(deadLetterQueue).acknowledge({
      id: "AwsSolutions-SQS3",
      reason:
        "This queue is the delivery DLQ of one target: failures with their reason, and its queue's redrive.",
    });
    const queue = new Queue(scope, "Queue", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      visibilityTimeout: Duration.seconds(6 * DELIVER_FUNCTION_TIMEOUT.toSeconds()),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: DELIVERY_MAX_RECEIVE_COUNT },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const rule = new Rule(scope, "Rule", {
      eventBus: props.bus,
      description: `Outcome changes of ${policy} to ${target.on.join(", ")} → delivery target ${target.name}`,
      eventPattern: {
        source: [OUTCOME_EVENT_SOURCE],
        detailType: [OUTCOME_EVENT_DETAIL_TYPE],
        detail: { dynamodb: { NewImage: { policy: { S: [policy] }, status: { S: [...target.on] } } } },
      },
    });
    rule.addTarget(
      new SqsQueue(queue, {
        message: RuleTargetInput.fromObject({ target: key, event: EventField.fromPath("$") }),
        deadLetterQueue,
      }),
    );
    const alarm = new Alarm(scope, "DeadLettersAlarm", {
      alarmDescription: `Deliveries to ${key} were given up on: decisions deliveries list --queue-url <its DLQ>, then redrive`,
      metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(props.alarmTopic));
    new CfnOutput(scope, "DeliveryDlqUrl", {
      value: deadLetterQueue.queueUrl,
      description: `Delivery DLQ of ${key}: decisions deliveries list --queue-url <this>`,
    });
    return { key, rule, queue, deadLetterQueue, alarm };
  }
}

/**
 * The variable a url target's `env:NAME` secret names.
 * @throws Error for a literal secret: it would be written into the template.
 */
function secretVariableOf(policy: string, target: CatalogueTarget): string[] {
  if (target.secret === undefined) return [];
  if (!target.secret.startsWith("env:"))
    throw new Error(
      `delivery target ${policy}/${target.name}: a literal secret would be written into the CloudFormation template; write secret: env:NAME and create the Secrets Manager secret NAME holding the whsec_… value`,
    );
  return [target.secret.slice("env:".length)];
}

/** The ARN of a bus given by name or ARN, in this stack's account and region. */
function busArnOf(scope: Construct, bus: string): string {
  if (bus.startsWith("arn:")) return bus;
  return Arn.format({ service: "events", resource: "event-bus", resourceName: bus }, Stack.of(scope));
}
