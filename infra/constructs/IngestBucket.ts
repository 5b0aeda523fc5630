import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { DECIDE_SETTINGS } from "../../contract/index.js";

/** Where the decide function keeps the whole state of items sent to review (`STATE_ARCHIVE_PREFIX`'s default). */
export const REVIEW_STATES_PREFIX = DECIDE_SETTINGS.stateArchivePrefix.default.value;

/** How long a kept review state lives: longer than an item waits for review, then it expires. */
export const REVIEW_STATES_RETENTION_DAYS = 90;

/**
 * The bucket batch files are dropped into (JSONL objects under the ingest prefix): encrypted
 * (SSE-S3), TLS only, public access blocked, versioned (item ids include the object's version),
 * with server access logs in a bucket of their own (delivered under its bucket policy, ACLs
 * disabled), and its events sent to EventBridge. Under {@link REVIEW_STATES_PREFIX} it also holds
 * the whole states of items sent to review (content-addressed, written by the decide function),
 * expired after {@link REVIEW_STATES_RETENTION_DAYS} days (they are outside the ingest prefix and
 * suffix, so no ingest starts). Both buckets are kept by `cdk destroy` and by a
 * replacement (`RetainExceptOnCreate`: a first create that fails leaves nothing behind).
 */
export class IngestBucket extends Construct {
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.accessLogs = new Bucket(this, "AccessLogs", {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // Server access logs are delivered under a bucket policy (no ACL), so ACLs stay disabled.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    this.bucket = new Bucket(this, "Bucket", {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      versioned: true,
      // New objects reach the ingest workflow as EventBridge "Object Created" events.
      eventBridgeEnabled: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: "ingest/",
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(30) },
        {
          id: "ReviewStates",
          prefix: REVIEW_STATES_PREFIX,
          expiration: Duration.days(REVIEW_STATES_RETENTION_DAYS),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
  }
}
