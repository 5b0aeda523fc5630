import { createHash } from "node:crypto";
import { TemplateResolveError } from "../errors.js";
import type { CfnResource, CfnTemplate } from "../stack/cfnTemplate.js";
import { sageMakerArn } from "./arns.js";

export type { CfnResource, CfnTemplate };

/** Where the template is imagined deployed. */
export interface DeployTarget {
  /** Default `111122223333`. */
  account: string;
  /** Default `us-east-1`. */
  region: string;
  /** Default `aws`. */
  partition: string;
  /** The stack's name (generated physical names start with it). */
  stackName: string;
}

/** The default {@link DeployTarget} of a stack name. */
export function deployTargetOf(stackName: string, overrides: Partial<DeployTarget> = {}): DeployTarget {
  return { account: "111122223333", region: "us-east-1", partition: "aws", stackName, ...overrides };
}

/** The property holding a resource's own name, per type (absent: CloudFormation generates one). */
const NAME_PROPERTY: Readonly<Record<string, string>> = {
  "AWS::SQS::Queue": "QueueName",
  "AWS::DynamoDB::Table": "TableName",
  "AWS::S3::Bucket": "BucketName",
  "AWS::Lambda::Function": "FunctionName",
  "AWS::IAM::Role": "RoleName",
  "AWS::SageMaker::Endpoint": "EndpointName",
  "AWS::SageMaker::EndpointConfig": "EndpointConfigName",
  "AWS::SageMaker::Model": "ModelName",
  "AWS::SageMaker::InferenceComponent": "InferenceComponentName",
  "AWS::Events::EventBus": "Name",
  "AWS::Events::Rule": "Name",
  "AWS::StepFunctions::StateMachine": "StateMachineName",
  "AWS::SNS::Topic": "TopicName",
  "AWS::Logs::LogGroup": "LogGroupName",
  "AWS::CloudWatch::Alarm": "AlarmName",
  "AWS::Pipes::Pipe": "Name",
};

/**
 * Resolves the intrinsic functions of a synthesized template (`Ref`, `Fn::GetAtt`, `Fn::Join`,
 * `Fn::Sub`, `Fn::Select`, `Fn::Split`) to the strings AWS would put there once deployed to a
 * {@link DeployTarget}: a resource's own name when the template gives one, otherwise a name as
 * CloudFormation generates it (`<stack>-<logical id>-<suffix>`, lower case for buckets, `.fifo` for
 * FIFO queues); `Ref` and the `Arn` attributes as each service documents them. SageMaker's ARNs carry
 * the name in lower case, as SageMaker forms them; its `EndpointName` attribute is the name as
 * created (what the code calls with). Deterministic: the same template gives the same strings.
 */
export class TemplateResolver {
  readonly #names = new Map<string, string>();

  constructor(
    readonly template: CfnTemplate,
    readonly target: DeployTarget,
  ) {}

  /** The resource of a logical id. @throws TemplateResolveError when there is none. */
  resource(logicalId: string): CfnResource {
    const resource = this.template.Resources[logicalId];
    if (resource === undefined) throw new TemplateResolveError(`no resource ${logicalId} in the template`);
    return resource;
  }

  /** Every logical id of the given type, in template order. */
  logicalIdsOf(type: string): string[] {
    return Object.entries(this.template.Resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id]) => id);
  }

  /** A value with every intrinsic function resolved. @throws TemplateResolveError on one it cannot resolve. */
  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.resolve(item));
    if (value === null || typeof value !== "object") return value;
    const entries = Object.entries(value);
    const [first] = entries;
    if (entries.length === 1 && first !== undefined) {
      const [key, argument] = first;
      if (key === "Ref") return this.ref(String(argument));
      if (key === "Fn::GetAtt") {
        const [id, attribute] = Array.isArray(argument) ? argument : String(argument).split(".");
        return this.getAtt(String(id), String(attribute));
      }
      if (key === "Fn::Join") {
        const [separator, parts] = argument as [string, unknown[]];
        return (this.resolve(parts) as unknown[]).map(String).join(separator);
      }
      if (key === "Fn::Sub") return this.sub(argument);
      if (key === "Fn::Select") {
        const [index, list] = argument as [unknown, unknown];
        return (this.resolve(list) as unknown[])[Number(this.resolve(index))];
      }
      if (key === "Fn::Split") {
        const [separator, text] = argument as [string, unknown];
        return String(this.resolve(text)).split(separator);
      }
      if (key.startsWith("Fn::")) throw new TemplateResolveError(`${key} is not resolved by the rehearsal`);
    }
    return Object.fromEntries(entries.map(([key, item]) => [key, this.resolve(item)]));
  }

  /** A value resolved to a string. @throws TemplateResolveError when it is not one. */
  resolveString(value: unknown): string {
    const resolved = this.resolve(value);
    if (typeof resolved !== "string" && typeof resolved !== "number")
      throw new TemplateResolveError(`expected a string, got ${JSON.stringify(resolved)}`);
    return String(resolved);
  }

  /** What `Ref` gives: a pseudo parameter, or the resource's reference as its type documents it. */
  ref(name: string): string {
    const { account, region, partition, stackName } = this.target;
    const pseudo: Record<string, string> = {
      "AWS::AccountId": account,
      "AWS::Region": region,
      "AWS::Partition": partition,
      "AWS::URLSuffix": "amazonaws.com",
      "AWS::StackName": stackName,
      "AWS::StackId": `arn:${partition}:cloudformation:${region}:${account}:stack/${stackName}/00000000-0000-0000-0000-000000000000`,
      "AWS::NoValue": "",
    };
    const known = pseudo[name];
    if (known !== undefined) return known;
    if (this.template.Parameters?.[name] !== undefined) return `parameter-${name}`;
    const type = this.resource(name).Type;
    switch (type) {
      case "AWS::SQS::Queue":
        return `https://sqs.${region}.amazonaws.com/${account}/${this.physicalName(name)}`;
      case "AWS::SageMaker::Endpoint":
      case "AWS::SageMaker::EndpointConfig":
      case "AWS::SageMaker::Model":
      case "AWS::StepFunctions::StateMachine":
      case "AWS::SNS::Topic":
        return this.arnOf(name);
      case "AWS::Lambda::EventSourceMapping":
        return this.uuidOf(name);
      default:
        return this.physicalName(name);
    }
  }

  /** What `Fn::GetAtt` gives for the attributes the stack uses. */
  getAtt(logicalId: string, attribute: string): string {
    const type = this.resource(logicalId).Type;
    if (attribute === "Arn") return this.arnOf(logicalId);
    const name = this.physicalName(logicalId);
    switch (`${type}.${attribute}`) {
      case "AWS::SageMaker::Endpoint.EndpointName":
      case "AWS::SageMaker::EndpointConfig.EndpointConfigName":
      case "AWS::SageMaker::Model.ModelName":
      case "AWS::SQS::Queue.QueueName":
      case "AWS::Events::EventBus.Name":
      case "AWS::StepFunctions::StateMachine.Name":
      case "AWS::SNS::Topic.TopicName":
        return name;
      case "AWS::SQS::Queue.QueueUrl":
        return this.ref(logicalId);
      case "AWS::DynamoDB::Table.StreamArn":
        return `${this.arnOf(logicalId)}/stream/2026-01-01T00:00:00.000`;
      case "AWS::Lambda::EventSourceMapping.EventSourceMappingArn":
        return this.arnOf(logicalId);
      case "AWS::S3::Bucket.RegionalDomainName":
        return `${name}.s3.${this.target.region}.amazonaws.com`;
      case "AWS::S3::Bucket.DomainName":
        return `${name}.s3.amazonaws.com`;
      case "AWS::ApiGatewayV2::Api.ApiEndpoint":
        return `https://${this.ref(logicalId)}.execute-api.${this.target.region}.amazonaws.com`;
      default:
        return `${logicalId}.${attribute}`;
    }
  }

  /** The ARN AWS forms for a resource (SageMaker's with the name in lower case). */
  arnOf(logicalId: string): string {
    const { account, region, partition } = this.target;
    const type = this.resource(logicalId).Type;
    const name = this.physicalName(logicalId);
    const arn = (service: string, resource: string, inRegion = true) =>
      `arn:${partition}:${service}:${inRegion ? region : ""}:${inRegion ? account : ""}:${resource}`;
    switch (type) {
      case "AWS::SQS::Queue":
        return arn("sqs", name);
      case "AWS::DynamoDB::Table":
        return arn("dynamodb", `table/${name}`);
      case "AWS::S3::Bucket":
        return `arn:${partition}:s3:::${name}`;
      case "AWS::Lambda::Function":
        return arn("lambda", `function:${name}`);
      case "AWS::Lambda::EventSourceMapping":
        return arn("lambda", `event-source-mapping:${this.uuidOf(logicalId)}`);
      case "AWS::IAM::Role":
        return `arn:${partition}:iam::${account}:role/${name}`;
      case "AWS::SageMaker::Endpoint":
        return sageMakerArn(this.target, "endpoint", name);
      case "AWS::SageMaker::EndpointConfig":
        return sageMakerArn(this.target, "endpoint-config", name);
      case "AWS::SageMaker::Model":
        return sageMakerArn(this.target, "model", name);
      case "AWS::Events::EventBus":
        return arn("events", `event-bus/${name}`);
      case "AWS::Events::Rule":
        return arn("events", `rule/${name}`);
      case "AWS::StepFunctions::StateMachine":
        return arn("states", `stateMachine:${name}`);
      case "AWS::SNS::Topic":
        return arn("sns", name);
      case "AWS::Logs::LogGroup":
        return arn("logs", `log-group:${name}:*`);
      case "AWS::CloudWatch::Alarm":
        return arn("cloudwatch", `alarm:${name}`);
      case "AWS::Pipes::Pipe":
        return arn("pipes", `pipe/${name}`);
      default:
        return arn(type.split("::")[1]?.toLowerCase() ?? "unknown", `${logicalId}/${name}`);
    }
  }

  /** The resource's name: its name property resolved, or one generated as CloudFormation does. */
  physicalName(logicalId: string): string {
    const known = this.#names.get(logicalId);
    if (known !== undefined) return known;
    const resource = this.resource(logicalId);
    const property = NAME_PROPERTY[resource.Type];
    const given = property === undefined ? undefined : resource.Properties?.[property];
    const name = given !== undefined ? this.resolveString(given) : this.generatedName(logicalId, resource);
    this.#names.set(logicalId, name);
    return name;
  }

  private generatedName(logicalId: string, resource: CfnResource): string {
    const digest = createHash("sha256").update(`${this.target.stackName}/${logicalId}`).digest("hex");
    const suffix = digest.slice(0, 12).toUpperCase();
    if (resource.Type === "AWS::S3::Bucket")
      return `${this.target.stackName}-${logicalId}-${suffix}`.toLowerCase().slice(0, 63);
    const name = `${this.target.stackName}-${logicalId.slice(0, 40)}-${suffix}`;
    return resource.Properties?.FifoQueue === true ? `${name.slice(0, 75)}.fifo` : name;
  }

  private uuidOf(logicalId: string): string {
    const hex = createHash("sha256").update(`esm/${logicalId}`).digest("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  private sub(argument: unknown): string {
    const [text, variables] = Array.isArray(argument)
      ? (argument as [string, Record<string, unknown>])
      : [String(argument), {}];
    return text.replace(/\$\{([^}!]+)\}/g, (_whole, name: string) => {
      if (name in variables) return this.resolveString(variables[name]);
      const [id, attribute] = name.split(".");
      if (id !== undefined && attribute !== undefined) return this.getAtt(id, attribute);
      return this.ref(name);
    });
  }
}
