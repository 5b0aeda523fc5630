import type { CfnElement } from "aws-cdk-lib";
import type { IBucket } from "aws-cdk-lib/aws-s3";

/** The logical id of a bucket defined in this app, as cdk-nag names it in findings. */
export function bucketLogicalId(bucket: IBucket): string {
  const resource = bucket.node.defaultChild;
  if (resource === undefined) return bucket.node.id;
  return bucket.stack.getLogicalId(resource as CfnElement);
}
