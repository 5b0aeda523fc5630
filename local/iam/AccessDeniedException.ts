import { randomUUID } from "node:crypto";

/** What a refused call's error says: who asked, what, on what. */
export interface AccessDeniedDetails {
  /** The principal (`arn:aws:sts::<account>:assumed-role/<role>/<function>`). */
  principal: string;
  action: string;
  resource: string;
  /** An explicit Deny matched (default false: no identity-based policy allows it). */
  explicitDeny?: boolean;
}

/**
 * A call refused by IAM, shaped as the AWS SDK v3 throws it: `name` the service's error code,
 * `$fault` "client", `$metadata` with the HTTP status, and AWS's message ("User: <principal> is not
 * authorized to perform: <action> on resource: <arn> because no identity-based policy allows the
 * <action> action"). DynamoDB, SQS and SageMaker answer `AccessDeniedException` with HTTP 400 (their
 * JSON protocols' common error); S3 answers `AccessDenied` with HTTP 403 (its REST error code),
 * so code that tells a refusal apart by its name sees what it would see on AWS.
 */
export class AccessDeniedException extends Error {
  override name: string;
  readonly $fault = "client" as const;
  readonly $metadata: {
    httpStatusCode: number;
    requestId: string;
    attempts: number;
    totalRetryDelay: number;
  };
  /** The error code as the service's body carries it (what `Code` holds in an S3 error). */
  readonly Code: string;
  readonly action: string;
  readonly resource: string;
  readonly principal: string;

  constructor(service: string, details: AccessDeniedDetails) {
    const s3 = service === "s3";
    super(accessDeniedMessage(details, s3));
    this.name = s3 ? "AccessDenied" : "AccessDeniedException";
    this.Code = this.name;
    this.$metadata = {
      httpStatusCode: s3 ? 403 : 400,
      requestId: randomUUID(),
      attempts: 1,
      totalRetryDelay: 0,
    };
    this.action = details.action;
    this.resource = details.resource;
    this.principal = details.principal;
  }
}

/** AWS's wording of a refusal (S3 quotes the resource). */
function accessDeniedMessage(details: AccessDeniedDetails, quoted: boolean): string {
  const resource = quoted ? `"${details.resource}"` : details.resource;
  const because =
    details.explicitDeny === true
      ? `with an explicit deny in an identity-based policy`
      : `because no identity-based policy allows the ${details.action} action`;
  return `User: ${details.principal} is not authorized to perform: ${details.action} on resource: ${resource} ${because}`;
}
