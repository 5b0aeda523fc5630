import { regionalArn, sageMakerArn, tableArn } from "./arns.js";
import type { TemplateResolver } from "./TemplateResolver.js";

/**
 * The local stack's resources by their local names, each with the template's resource it stands
 * for: tables, queues and buckets by logical id; endpoints by the name the deployed functions
 * call them by (their `ENDPOINT_NAME`, `SHADOW_ENDPOINT_NAME`, resolved).
 */
export interface LocalResourceNames {
  /** Local table name → the table's logical id. */
  tables: Readonly<Record<string, string>>;
  /** Local queue name (the last segment of its URL) → the queue's logical id. */
  queues: Readonly<Record<string, string>>;
  /** Local bucket name → the bucket's logical id. */
  buckets: Readonly<Record<string, string>>;
  /** Local endpoint name → the deployed endpoint's name. */
  endpoints: Readonly<Record<string, string>>;
}

/**
 * The ARNs AWS would form for the local stack's resources once the template is deployed (to the
 * resolver's target): each local name replaced by the deployed resource's name as CloudFormation
 * gives it (`TemplateResolver`). A name the template has no resource for keeps its local name in
 * the ARN, so a call to it is checked (and refused) like a call to a resource no grant names.
 */
export class DeployedNames {
  constructor(
    readonly resolver: TemplateResolver,
    readonly local: LocalResourceNames,
  ) {}

  get target() {
    return this.resolver.target;
  }

  /** `arn:aws:dynamodb:<region>:<account>:table/<deployed name>`. */
  tableArn(table: string): string {
    const logicalId = this.local.tables[table];
    if (logicalId !== undefined) return this.resolver.arnOf(logicalId);
    return tableArn(this.resolver.target, table);
  }

  /**
   * The partition key's attribute of the table (of the index, when one is named), as the template
   * declares its key schema; undefined for a table the template does not hold.
   */
  partitionKeyOf(table: string, index?: string): string | undefined {
    const logicalId = this.local.tables[table];
    if (logicalId === undefined) return undefined;
    const properties = this.resolver.resource(logicalId).Properties ?? {};
    type KeyElement = { AttributeName: string; KeyType: string };
    const schema =
      index === undefined
        ? (properties.KeySchema as KeyElement[] | undefined)
        : [
            ...((properties.GlobalSecondaryIndexes as { IndexName: string; KeySchema: KeyElement[] }[]) ??
              []),
            ...((properties.LocalSecondaryIndexes as { IndexName: string; KeySchema: KeyElement[] }[]) ?? []),
          ].find((entry) => entry.IndexName === index)?.KeySchema;
    return schema?.find((element) => element.KeyType === "HASH")?.AttributeName;
  }

  /** `arn:aws:sqs:<region>:<account>:<deployed name>` of a local queue's name. */
  queueArn(queueName: string): string {
    const logicalId = this.local.queues[queueName];
    if (logicalId !== undefined) return this.resolver.arnOf(logicalId);
    return regionalArn(this.resolver.target, "sqs", queueName);
  }

  /** The deployed bucket's name. */
  bucketName(bucket: string): string {
    const logicalId = this.local.buckets[bucket];
    return logicalId === undefined ? bucket : this.resolver.physicalName(logicalId);
  }

  /** The deployed endpoint's name (as created: what the functions call it by). */
  endpointName(endpoint: string): string {
    return this.local.endpoints[endpoint] ?? endpoint;
  }

  /** SageMaker's ARN of an endpoint: the deployed name in lower case, as SageMaker forms it. */
  endpointArn(endpoint: string): string {
    return sageMakerArn(this.resolver.target, "endpoint", this.endpointName(endpoint));
  }

  /** SageMaker's ARN of an inference component: its name in lower case. */
  inferenceComponentArn(component: string): string {
    return sageMakerArn(this.resolver.target, "inference-component", component);
  }

  /** An ARN of this target: `arn:<partition>:<service>:<region>:<account>:<resource>`. */
  arn(service: string, resource: string): string {
    return regionalArn(this.resolver.target, service, resource);
  }
}
