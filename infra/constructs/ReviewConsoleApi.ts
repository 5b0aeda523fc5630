import { Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  type IHttpRouteAuthorizer,
  LogGroupLogDestination,
} from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { REVIEW_CONSOLE_SETTINGS, variableOf } from "../../contract/index.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link ReviewConsoleApi}. */
export interface ReviewConsoleApiProps {
  /** The handler module (`functions/reviewConsole/handler.ts`). */
  entry: string;
  projectRoot: string;
  table: ITable;
  /** The ARN of the table's by-status index (the review queue reads it). */
  statusIndexArn: string;
  /** The deployed policies' names: the only partition keys the function may touch. */
  policyNames: readonly string[];
  memorySize: number;
  logRetention: RetentionDays;
  /** Steady requests per second across the API. Default 50. */
  rateLimit?: number;
  /** Burst of requests across the API. Default 100. */
  burstLimit?: number;
}

/**
 * The table actions the review console's API makes — and nothing else. `ReviewApi` reads an item
 * (GetItem, consistent), lists the queue through the by-status index and a policy's newest outcomes
 * (Query), and records a review as a conditional put of the whole outcome (PutItem with a
 * condition on `updated_at`, `functions/outcomes/reviewOutcome.ts`). No Scan, no DeleteItem, no
 * batch or transaction actions; test/functions/reviewConsole checks the calls against this list.
 */
export const REVIEW_CONSOLE_TABLE_ACTIONS = [
  "dynamodb:GetItem",
  "dynamodb:PutItem",
  "dynamodb:Query",
] as const;

/** The routes of the API (the router's, `functions/reviewConsole/api/routeReviewRequest.ts`), each behind the authorizer. */
export const REVIEW_CONSOLE_ROUTES: readonly { method: HttpMethod; path: string }[] = [
  { method: HttpMethod.GET, path: "/api/me" },
  { method: HttpMethod.GET, path: "/api/policies" },
  { method: HttpMethod.GET, path: "/api/policies/{policy}/stats" },
  { method: HttpMethod.GET, path: "/api/queue" },
  { method: HttpMethod.GET, path: "/api/queue/count" },
  { method: HttpMethod.GET, path: "/api/items/{policy}/{id}" },
  { method: HttpMethod.POST, path: "/api/items/{policy}/{id}/review" },
];

/**
 * The review console's HTTP API: the Lambda function on `functions/reviewConsole/handler.ts` (the router
 * `decisions up` serves locally), an HTTP API with one route per operation (no `$default` route:
 * anything else is API Gateway's 404 and never reaches the function), a `$default` stage with
 * throttling and JSON access logs. The routes are added with {@link authorizeRoutes}, each behind
 * the given authorizer. The function may get, put and query the outcomes table only for the
 * deployed policies' partitions, and query the by-status index.
 */
export class ReviewConsoleApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly function: IFunction;
  readonly accessLogs: LogGroup;
  readonly #integration: HttpLambdaIntegration;

  constructor(scope: Construct, id: string, props: ReviewConsoleApiProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: Duration.seconds(15),
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      description: "The review console's API: the review queue, items and reviews, for the reviewers group",
      environment: { [variableOf(REVIEW_CONSOLE_SETTINGS.outcomesTable)]: props.table.tableName },
    });
    this.function = fn.function;
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: [...REVIEW_CONSOLE_TABLE_ACTIONS],
        resources: [props.table.tableArn],
        // Only the deployed policies' items: the partition key is the policy's name.
        conditions: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": [...props.policyNames] } },
      }),
    );
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["dynamodb:Query"], resources: [props.statusIndexArn] }),
    );

    this.api = new HttpApi(this, "Api", {
      description: "The review console's API (Cognito JWT on every route)",
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, "AccessLogs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, "Stage", {
      httpApi: this.api,
      stageName: "$default",
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit ?? 50, burstLimit: props.burstLimit ?? 100 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: "$context.requestId",
            time: "$context.requestTime",
            ip: "$context.identity.sourceIp",
            route: "$context.routeKey",
            status: "$context.status",
            latencyMs: "$context.responseLatency",
            sub: "$context.authorizer.claims.sub",
            authorizerError: "$context.authorizer.error",
            integrationError: "$context.integrationErrorMessage",
          }),
        ),
      },
    });
    this.#integration = new HttpLambdaIntegration("Router", this.function);
  }

  /** The API's host name (the CloudFront origin of `/api/*`). */
  get domainName(): string {
    const stack = Stack.of(this);
    return `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
  }

  /** Adds every route of {@link REVIEW_CONSOLE_ROUTES}, each behind `authorizer`. */
  authorizeRoutes(authorizer: IHttpRouteAuthorizer): HttpRoute[] {
    return REVIEW_CONSOLE_ROUTES.map(
      (route) =>
        new HttpRoute(this, `${route.method}${route.path.replace(/[^A-Za-z]/g, "")}`, {
          httpApi: this.api,
          routeKey: HttpRouteKey.with(route.path, route.method),
          integration: this.#integration,
          authorizer,
        }),
    );
  }
}
