import { RemovalPolicy } from "aws-cdk-lib";
import {
  type Attribute,
  BillingMode,
  StreamViewType,
  Table,
  TableEncryption,
} from "aws-cdk-lib/aws-dynamodb";
import type { Construct } from "constructs";

/** Options of {@link recordTable}. */
export interface RecordTableOptions {
  partitionKey: Attribute;
  sortKey: Attribute;
  /** `RETAIN_ON_UPDATE_OR_DELETE` also turns deletion protection on; `DESTROY` deletes the table. */
  removalPolicy: RemovalPolicy;
  /** Items with this attribute expire. Default: none expire. */
  timeToLiveAttribute?: string;
}

/**
 * A table of the pipeline's records (outcomes, jobs): on-demand, point-in-time recovery, encrypted
 * with the AWS-managed key, a NEW_AND_OLD_IMAGES stream (its Pipes and triggers read it), and a
 * table that is kept is also protected from a deletion by hand (or by a renamed construct).
 */
export function recordTable(scope: Construct, id: string, options: RecordTableOptions): Table {
  return new Table(scope, id, {
    partitionKey: options.partitionKey,
    sortKey: options.sortKey,
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: TableEncryption.AWS_MANAGED,
    stream: StreamViewType.NEW_AND_OLD_IMAGES,
    ...(options.timeToLiveAttribute !== undefined
      ? { timeToLiveAttribute: options.timeToLiveAttribute }
      : {}),
    removalPolicy: options.removalPolicy,
    deletionProtection: options.removalPolicy !== RemovalPolicy.DESTROY,
  });
}
