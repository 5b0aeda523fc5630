/**
 * ARNs as AWS forms them from a resource's name, shared by the local stack's IAM enforcement
 * (`DeployedNames`), the template's resolver and the rehearsal's declared calls.
 */

/** Where a name's ARN lives: the partition, region and account. */
export interface ArnScope {
  partition: string;
  region: string;
  account: string;
}

/** `arn:<partition>:<service>:<region>:<account>:<resource>`. */
export function regionalArn(scope: ArnScope, service: string, resource: string): string {
  return `arn:${scope.partition}:${service}:${scope.region}:${scope.account}:${resource}`;
}

/** A DynamoDB table's ARN (`table/<name>`; an index's is `<table ARN>/index/<index>`). */
export function tableArn(scope: ArnScope, table: string): string {
  return regionalArn(scope, "dynamodb", `table/${table}`);
}

/**
 * A SageMaker resource's ARN: SageMaker forms it with the name in lower case (IAM matches
 * resources case-sensitively, so a grant naming the endpoint as created, in mixed case, misses).
 */
export function sageMakerArn(
  scope: ArnScope,
  type: "endpoint" | "endpoint-config" | "model" | "inference-component",
  name: string,
): string {
  return regionalArn(scope, "sagemaker", `${type}/${name.toLowerCase()}`);
}

/** A queue's ARN from its URL (`https://sqs.<region>.amazonaws.com/<account>/<name>`): the URL's account and name. */
export function queueArnOfUrl(scope: Omit<ArnScope, "account">, url: string): string {
  const [, account = "", name = ""] = new URL(url).pathname.split("/");
  return `arn:${scope.partition}:sqs:${scope.region}:${account}:${name}`;
}
