import { Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import {
  AllowedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { Construct } from "constructs";

/** Props of {@link ReviewConsoleSite}. */
export interface ReviewConsoleSiteProps {
  /** The folder of the built page (`index.html`, `app.js`, `styles.css`). */
  siteFolder: string;
  /** The content security policy the page is written for: no inline script or style. */
  contentSecurityPolicy: string;
  /** Host name of the console's HTTP API, served under `/api/*` of the same origin. */
  apiDomainName: string;
  /** How long CloudFront's and S3's access logs are kept, in days. Default 90. */
  logRetentionDays?: number;
}

/** How long a browser that saw the console keeps to HTTPS for it (HSTS max-age). */
export const REVIEW_CONSOLE_HSTS_MAX_AGE = Duration.days(365);

/**
 * The review console's page on a private S3 bucket (public access blocked, TLS-only bucket policy)
 * behind CloudFront with origin access control, `index.html` as the default root object, and the
 * API under `/api/*` of the same origin — so the page needs no CORS and its content security
 * policy can say `connect-src 'self'`. A response headers policy adds HSTS, nosniff, frame denial,
 * no referrer and the content security policy to every answer. CloudFront's and S3's access logs
 * go to a log bucket.
 */
export class ReviewConsoleSite extends Construct {
  readonly bucket: Bucket;
  readonly logs: Bucket;
  readonly distribution: Distribution;
  readonly headers: ResponseHeadersPolicy;
  readonly #siteFolder: string;

  constructor(scope: Construct, id: string, props: ReviewConsoleSiteProps) {
    super(scope, id);
    this.#siteFolder = props.siteFolder;
    // CloudFront's standard logs are written with an ACL grant: the log bucket keeps ACLs on (the
    // bucket owner still owns every object); nothing is public.
    this.logs = new Bucket(this, "AccessLogs", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(props.logRetentionDays ?? 90) }],
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    this.bucket = new Bucket(this, "Assets", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: "s3/",
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    this.headers = new ResponseHeadersPolicy(this, "Headers", {
      comment: "Review console: HSTS, CSP without inline scripts, nosniff, no framing, no referrer",
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: REVIEW_CONSOLE_HSTS_MAX_AGE,
          includeSubdomains: true,
          override: true,
        },
        contentSecurityPolicy: { contentSecurityPolicy: props.contentSecurityPolicy, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          {
            header: "Permissions-Policy",
            value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
            override: true,
          },
        ],
      },
    });
    // The API's answers are one reviewer's view: never served to another token. The Authorization
    // header is part of the key (CloudFront forwards a header to the origin only through the cache
    // policy), and the function answers `Cache-Control: no-store`, so nothing is kept.
    const apiCache = new CachePolicy(this, "ApiCache", {
      comment: "Review console API: keyed by the token, nothing kept (the API says no-store)",
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: CacheHeaderBehavior.allowList("Authorization"),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      cookieBehavior: CacheCookieBehavior.none(),
    });
    this.distribution = new Distribution(this, "Distribution", {
      comment: "Review console",
      defaultRootObject: "index.html",
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logs,
      logFilePrefix: "cloudfront/",
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headers,
        compress: true,
      },
      additionalBehaviors: {
        "/api/*": {
          origin: new HttpOrigin(props.apiDomainName, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          }),
          // A token sent over plain HTTP would already be exposed: refused, not redirected.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCache,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.headers,
        },
      },
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: "AwsSolutions-CFR4",
        reason:
          "The console is served on its *.cloudfront.net name with CloudFront's default certificate, whose viewer security policy CloudFront fixes; a minimum of TLSv1.2_2021 needs a custom domain with an ACM certificate, which this stack does not have. HSTS keeps browsers on HTTPS.",
      },
      {
        id: "AwsSolutions-CFR1",
        reason:
          "Reviewers may work from any country, and the distribution serves only the page's code: every item is behind the API's Cognito JWT authorizer and the reviewers group, whatever the viewer's location.",
      },
      {
        id: "AwsSolutions-CFR2",
        reason:
          "A CloudFront web ACL must be created in us-east-1 and this stack deploys to the pipeline's region; the API is throttled per stage and needs a reviewer's token on every route (docs/deploying.md says how to attach a web ACL).",
      },
    );
  }

  /** The console's address: `https://<distribution>.cloudfront.net/`. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}/`;
  }

  /**
   * Deploys the page and `config.json` (what the page reads first: the API's base and the sign-in
   * settings — identifiers, no secrets) to the bucket, and invalidates CloudFront's copies.
   */
  deploy(config: Record<string, unknown>): BucketDeployment {
    const deployment = new BucketDeployment(this, "Deploy", {
      sources: [Source.asset(this.#siteFolder), Source.jsonData("config.json", config)],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ["/*"],
      prune: true,
      memoryLimit: 256,
      // The file names carry no hash: browsers revalidate every time.
      cacheControl: [CacheControl.noCache()],
    });
    this.acknowledgeDeploymentHandler();
    return deployment;
  }

  /**
   * BucketDeployment copies the files with a singleton Lambda function that CDK adds to the stack
   * (it runs at deploy only); its findings are CDK's, acknowledged here one by one with reasons.
   */
  private acknowledgeDeploymentHandler(): void {
    const stack = Stack.of(this);
    const handler = stack.node.children.find((child) =>
      child.node.id.startsWith("Custom::CDKBucketDeployment"),
    );
    if (handler === undefined) return;
    const assetsBucket = stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    const qualifier = String(stack.node.tryGetContext("@aws-cdk/core:bootstrapQualifier") ?? "hnb659fds");
    const stagingObjects = `arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>/*`;
    const reads =
      "CDK's deployment handler reads the page's asset from CDK's bootstrap staging bucket with CDK's read grant (s3:GetObject*, s3:GetBucket*, s3:List*) on that bucket only.";
    const writes =
      "CDK's deployment handler writes and prunes (prune: true) the console's own assets bucket, with CDK's read-write grant on that one bucket's objects.";
    Validations.of(handler).acknowledge(
      {
        id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
        reason:
          "CDK's BucketDeployment custom resource (runs at deploy only, to copy the console's page into its bucket) logs with the basic execution role.",
      },
      { id: "AwsSolutions-IAM5[Action::s3:GetBucket*]", reason: reads },
      { id: "AwsSolutions-IAM5[Action::s3:GetObject*]", reason: reads },
      { id: "AwsSolutions-IAM5[Action::s3:List*]", reason: reads },
      { id: `AwsSolutions-IAM5[Resource::${stagingObjects}]`, reason: reads },
      { id: "AwsSolutions-IAM5[Action::s3:Abort*]", reason: writes },
      { id: "AwsSolutions-IAM5[Action::s3:DeleteObject*]", reason: writes },
      { id: `AwsSolutions-IAM5[Resource::<${assetsBucket}.Arn>/*]`, reason: writes },
      {
        id: "AwsSolutions-IAM5[Resource::*]",
        reason:
          "CDK's deployment handler invalidates the console's distribution after a deploy (cloudfront:CreateInvalidation, cloudfront:GetInvalidation), which CDK grants on every resource.",
      },
      {
        id: "AwsSolutions-L1",
        reason:
          "CDK's BucketDeployment handler runs on the Python runtime CDK pins for its AWS CLI layer; the runtime is CDK's choice and moves with aws-cdk-lib upgrades.",
      },
    );
  }
}
