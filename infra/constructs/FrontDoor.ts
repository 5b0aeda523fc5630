import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import {
  AccessLogFormat,
  AuthorizationType,
  type IApiKey,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  RestApi,
  type UsagePlan,
} from "aws-cdk-lib/aws-apigateway";
import { AttributeType, BillingMode, Table, TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import {
  type IFunction,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
} from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { INTAKE_ROUTES, type IntakeRoute } from "../../contract/intake/intakeRoutes.js";
import type { Lane } from "../../contract/lanes/lanes.js";
import { FRONT_DOOR_SETTINGS } from "../../contract/settings/frontDoorSettings.js";
import { variableOf } from "../../contract/settings/Setting.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link FrontDoor}. */
export interface FrontDoorProps {
  /** The handler module (`functions/frontDoor/handler.ts`). */
  entry: string;
  projectRoot: string;
  /** Each lane's work queue: the only queues the function may send to. */
  queues: Readonly<Record<Lane, IQueue>>;
  memorySize: number;
  logRetention: RetentionDays;
  /** Steady requests per second across the API (the stage). Default 50. */
  rateLimit?: number;
  /** Burst of requests across the API (the stage). Default 100. */
  burstLimit?: number;
  /** Steady requests per second of one caller (its API key in the usage plan). Default 10. */
  callerRateLimit?: number;
  /** Burst of one caller. Default 20. */
  callerBurstLimit?: number;
}

/**
 * The table actions of Powertools idempotency's DynamoDB persistence layer — and nothing else:
 * the in-progress mark (conditional PutItem), the kept answer (UpdateItem), a failed run's mark
 * removed (DeleteItem), the kept answer read (GetItem).
 */
export const FRONT_DOOR_TABLE_ACTIONS = [
  "dynamodb:GetItem",
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
] as const;

/**
 * The front door: work items over HTTPS, on API Gateway's REST API (the API type with per-caller
 * throttling through usage plans and API keys), one Lambda integration per route of
 * `contract/intake/intakeRoutes.ts`: `POST /v1/work-items` with AWS_IAM authorization (SigV4),
 * `POST /v1/webhooks/work-items` verified by the function (Standard Webhooks, the senders' secret
 * from Secrets Manager through the Parameters and Secrets extension), `GET
 * /v1/schemas/work-item.json` for anyone. Both POST routes need an API key of the usage plan (one
 * per caller: its throttle). A function, not a direct SQS integration: each item is validated
 * against the work item's schema and the deployed policies, answered with the fields that are
 * wrong, sent to its policy's lane and kept for retries (idempotency table), which a mapping
 * template cannot do. The function may send only to the lane queues.
 */
export class FrontDoor extends Construct {
  readonly api: RestApi;
  readonly function: IFunction;
  readonly idempotencyTable: Table;
  /** The webhook senders' secret: set it with `aws secretsmanager put-secret-value` (`whsec_…`). */
  readonly webhookSecret: Secret;
  /** Per-caller throttling: add one API key per caller. */
  readonly usagePlan: UsagePlan;
  /** The first caller's API key (the help desk's webhook). */
  readonly webhookApiKey: IApiKey;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: FrontDoorProps) {
    super(scope, id);
    this.idempotencyTable = new Table(this, "IdempotencyTable", {
      partitionKey: { name: "id", type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: "expiration",
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // As every table of the stack: kept on delete and replacement (a retry's first answer must
      // survive a stack update that would otherwise replace the table).
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      deletionProtection: true,
    });
    this.webhookSecret = new Secret(this, "WebhookSecret", {
      description:
        "The front door's webhook senders' secret (Standard Webhooks, whsec_ and base64 of 24-64 random bytes): set it with put-secret-value; the generated value is a placeholder the function refuses",
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
    });
    Validations.of(this.webhookSecret).acknowledge({
      id: "AwsSolutions-SMG4",
      reason:
        "A webhook signing secret is shared with the sender's system (a help desk): it is rotated by the two owners together, not by a rotation Lambda that could not update the sender.",
    });
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: Duration.seconds(15),
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      description: "The front door: validates work items and puts them on their lane's queue, once per key",
      environment: {
        [variableOf(FRONT_DOOR_SETTINGS.interactiveQueueUrl)]: props.queues.interactive.queueUrl,
        [variableOf(FRONT_DOOR_SETTINGS.bulkQueueUrl)]: props.queues.bulk.queueUrl,
        [variableOf(FRONT_DOOR_SETTINGS.idempotencyTable)]: this.idempotencyTable.tableName,
        [variableOf(FRONT_DOOR_SETTINGS.webhookSecretArn)]: this.webhookSecret.secretArn,
      },
      paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
        cacheSize: 10,
        logLevel: ParamsAndSecretsLogLevel.WARN,
      }),
    });
    this.function = fn.function;
    for (const queue of Object.values(props.queues)) queue.grantSendMessages(fn.role);
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: [...FRONT_DOOR_TABLE_ACTIONS],
        resources: [this.idempotencyTable.tableArn],
      }),
    );
    this.webhookSecret.grantRead(fn.role);

    this.accessLogs = new LogGroup(this, "AccessLogs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.api = new RestApi(this, "Api", {
      description: "The front door: work items over HTTPS (SigV4 or signed webhooks)",
      cloudWatchRole: false,
      deployOptions: {
        stageName: "live",
        throttlingRateLimit: props.rateLimit ?? 50,
        throttlingBurstLimit: props.burstLimit ?? 100,
        loggingLevel: MethodLoggingLevel.OFF,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: "$context.requestId",
            time: "$context.requestTime",
            ip: "$context.identity.sourceIp",
            caller: "$context.identity.userArn",
            apiKeyId: "$context.identity.apiKeyId",
            method: "$context.httpMethod",
            path: "$context.resourcePath",
            status: "$context.status",
            latencyMs: "$context.responseLatency",
            integrationError: "$context.integrationErrorMessage",
          }),
        ),
      },
    });
    const integration = new LambdaIntegration(this.function);
    const methods = INTAKE_ROUTES.map((route) => this.#addRoute(route, integration));
    this.usagePlan = this.api.addUsagePlan("Callers", {
      description: "One API key per caller: each caller's own throttle",
      throttle: { rateLimit: props.callerRateLimit ?? 10, burstLimit: props.callerBurstLimit ?? 20 },
      apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
    });
    this.webhookApiKey = this.api.addApiKey("WebhookSenderKey", {
      description: "The first webhook sender's API key (x-api-key); add one key per caller to the usage plan",
    });
    this.usagePlan.addApiKey(this.webhookApiKey);
    this.#acknowledge(methods);
  }

  /** One route of the contract's table, on the Lambda integration, with its authorization. */
  #addRoute(route: IntakeRoute, integration: LambdaIntegration): { route: IntakeRoute; method: Method } {
    const resource = this.api.root.resourceForPath(route.path);
    const method = resource.addMethod(route.method, integration, {
      authorizationType: route.auth === "iam" ? AuthorizationType.IAM : AuthorizationType.NONE,
      apiKeyRequired: route.auth !== "none",
    });
    return { route, method };
  }

  #acknowledge(methods: readonly { route: IntakeRoute; method: Method }[]): void {
    for (const { route, method } of methods) {
      const noCognito = {
        id: "AwsSolutions-COG4",
        reason: "No Cognito users call the front door: SigV4 callers (AWS_IAM) and signed webhooks.",
      };
      if (route.auth === "iam") {
        Validations.of(method).acknowledge(noCognito);
        continue;
      }
      Validations.of(method).acknowledge(
        {
          id: "AwsSolutions-APIG4",
          reason:
            route.auth === "webhook"
              ? "Webhook senders (help desks) cannot sign with SigV4: the function verifies each request's Standard Webhooks signature with the senders' secret and refuses it with 401 before anything is read or sent; the usage plan's API key throttles each sender."
              : "The work item's JSON Schema is public documentation for producers: it reveals nothing of the deployment.",
        },
        {
          id: "AwsSolutions-COG4",
          reason: "No Cognito users call the front door: SigV4 callers and signed webhooks.",
        },
      );
    }
    Validations.of(this.api).acknowledge(
      {
        id: "AwsSolutions-APIG2",
        reason:
          "The function validates every item against the work item's schema and the deployed policies and answers 400 naming each item's field and rule; API Gateway's draft-04 models could neither name them nor check policies.",
      },
      {
        id: "AwsSolutions-APIG6",
        reason:
          "Every request is in the stage's JSON access log (caller, API key, status, latency, integration error) and the function's log; execution logging would need the account-wide API Gateway CloudWatch role this stack does not own.",
      },
      {
        id: "AwsSolutions-APIG3",
        reason:
          "Requests are authenticated (SigV4 or a webhook signature) and each caller is throttled by its API key; a WAF web ACL is left to the account's edge policy.",
      },
    );
  }
}
