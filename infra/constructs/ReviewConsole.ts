import { Aws, CfnOutput, Stack } from "aws-cdk-lib";
import type { HttpRoute } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpJwtAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import type { UserPoolClient } from "aws-cdk-lib/aws-cognito";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import type { ConsoleSite } from "../config/readConsoleSite.js";
import { ReviewConsoleApi } from "./ReviewConsoleApi.js";
import { ReviewConsoleSite } from "./ReviewConsoleSite.js";
import { ReviewerPool } from "./ReviewerPool.js";

/** Props of {@link ReviewConsole}. */
export interface ReviewConsoleProps {
  /** The API function's handler module (`functions/reviewConsole/handler.ts`). */
  entry: string;
  projectRoot: string;
  /** The page as built at synth (`readConsoleSite`). */
  site: ConsoleSite;
  table: ITable;
  statusIndexArn: string;
  policyNames: readonly string[];
  memorySize: number;
  logRetention: RetentionDays;
}

/** What the page reads from `config.json` (the shape `console/web/api.ts` expects). */
export interface ReviewConsolePageConfig {
  /** The API's base URL: empty, the API is `/api/*` of the page's own origin. */
  api: string;
  auth: { domain: string; clientId: string; redirectUri: string; scopes: string[] };
}

/**
 * The deployed review console: the page on S3 behind CloudFront ({@link ReviewConsoleSite}), its
 * HTTP API ({@link ReviewConsoleApi}) under `/api/*` of the same origin, and who may use it
 * ({@link ReviewerPool}). Every route is behind an HTTP API JWT authorizer whose issuer is the user
 * pool and whose audience is the page's app client; the function takes the reviewer from the
 * verified token's claims and refuses everyone outside the reviewers group.
 */
export class ReviewConsole extends Construct {
  readonly site: ReviewConsoleSite;
  readonly api: ReviewConsoleApi;
  readonly pool: ReviewerPool;
  readonly client: UserPoolClient;
  readonly authorizer: HttpJwtAuthorizer;
  readonly routes: HttpRoute[];
  /** The issuer every accepted token names (`iss`): the user pool's. */
  readonly issuer: string;
  /** What `config.json` tells the page. */
  readonly pageConfig: ReviewConsolePageConfig;

  constructor(scope: Construct, id: string, props: ReviewConsoleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.pool = new ReviewerPool(this, "Reviewers", {
      // Unique per account; Cognito refuses capitals, and names holding "aws" or "cognito".
      domainPrefix: `${domainSafe(stack.stackName)}-review-${Aws.ACCOUNT_ID}`,
    });
    this.api = new ReviewConsoleApi(this, "Api", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      table: props.table,
      statusIndexArn: props.statusIndexArn,
      policyNames: props.policyNames,
      memorySize: props.memorySize,
      logRetention: props.logRetention,
    });
    this.site = new ReviewConsoleSite(this, "Site", {
      siteFolder: props.site.folder,
      contentSecurityPolicy: props.site.contentSecurityPolicy,
      apiDomainName: this.api.domainName,
    });
    this.client = this.pool.addPageClient("PageClient", this.site.url);
    this.issuer = `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.pool.userPool.userPoolId}`;
    this.authorizer = new HttpJwtAuthorizer("Reviewers", this.issuer, {
      jwtAudience: [this.client.userPoolClientId],
      identitySource: ["$request.header.Authorization"],
    });
    this.routes = this.api.authorizeRoutes(this.authorizer);
    this.pageConfig = {
      api: "",
      auth: {
        domain: `${this.pool.domain.domainName}.auth.${stack.region}.amazoncognito.com`,
        clientId: this.client.userPoolClientId,
        redirectUri: this.site.url,
        scopes: ["openid", "email"],
      },
    };
    this.site.deploy(this.pageConfig as unknown as Record<string, unknown>);

    const outputs = {
      ReviewConsoleUrl: { value: this.site.url, description: "the review console (sign in as a reviewer)" },
      ReviewerUserPoolId: {
        value: this.pool.userPool.userPoolId,
        description: `aws cognito-idp admin-create-user --user-pool-id <this>; then admin-add-user-to-group --group-name ${this.pool.reviewers.groupName}`,
      },
      ReviewConsoleApiUrl: {
        value: this.api.api.apiEndpoint,
        description:
          "the console's API (also under /api/ of the console's URL); a reviewer's token is required",
      },
    };
    for (const [outputId, output] of Object.entries(outputs))
      new CfnOutput(this, outputId, output).overrideLogicalId(outputId);
  }
}

function domainSafe(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/aws|amazon|cognito/g, "x")
      .replace(/^-+|-+$/g, "")
      .slice(0, 30) || "decisions"
  );
}
