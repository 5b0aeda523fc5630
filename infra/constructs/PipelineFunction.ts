import { type Duration, RemovalPolicy } from "aws-cdk-lib";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import {
  Architecture,
  LoggingFormat,
  type ParamsAndSecretsLayerVersion,
  Runtime,
} from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";

/** Props of {@link PipelineFunction}. */
export interface PipelineFunctionProps {
  /** The handler module (TypeScript), exporting `handler`. */
  entry: string;
  /** The project root: where `package-lock.json` and `policies/` are. */
  projectRoot: string;
  /** Folder of the policy files, relative to `projectRoot`. Default `policies`. */
  policyFolder?: string;
  timeout: Duration;
  memorySize: number;
  /** Function configuration (read once at cold start by the handler). `POLICY_DIR` is added. */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  /** Where asynchronous invocations that keep failing go. Default: none (SQS-triggered functions). */
  deadLetterQueue?: IQueue;
  description: string;
  /** The AWS Parameters and Secrets Lambda Extension, for a function that reads a secret. Default: none. */
  paramsAndSecrets?: ParamsAndSecretsLayerVersion;
}

/** Where the policy files are inside the Lambda bundle (the task root is `/var/task`). */
export const BUNDLED_POLICY_DIR = "/var/task/policies";

/**
 * A pipeline Lambda function: Node.js 24 on arm64, bundled at synth by the locally installed
 * esbuild (no Docker) into one ESM file with a source map, the `policies/*.yaml` copied beside it
 * (`POLICY_DIR`), its own log group with a retention, and its own role that may write only to that
 * log group (no managed policy). Callers grant the rest.
 */
export class PipelineFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: PipelineFunctionProps) {
    super(scope, id);
    const policyFolder = props.policyFolder ?? "policies";
    this.logGroup = new LogGroup(this, "Logs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new Role(this, "Role", {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      description: `${props.description} (writes only its own log group; grants are added per resource)`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, "Function", {
      entry: props.entry,
      handler: "handler",
      projectRoot: props.projectRoot,
      depsLockFilePath: `${props.projectRoot}/package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout: props.timeout,
      memorySize: props.memorySize,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      description: props.description,
      deadLetterQueue: props.deadLetterQueue,
      ...(props.paramsAndSecrets === undefined ? {} : { paramsAndSecrets: props.paramsAndSecrets }),
      environment: {
        ...props.environment,
        POLICY_DIR: BUNDLED_POLICY_DIR,
        NODE_OPTIONS: "--enable-source-maps",
      },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: "node24",
        mainFields: ["module", "main"],
        minify: true,
        sourceMap: true,
        // Everything is bundled (the AWS SDK included, at the version the tests ran against): the
        // bundle needs nothing from the runtime but Node itself.
        externalModules: [],
        // Bundled CommonJS dependencies call require(); an ES module has none unless given one.
        banner:
          "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => [
            `mkdir -p "${outputDir}/policies"`,
            `cp "${inputDir}/${policyFolder}"/*.yaml "${outputDir}/policies/"`,
          ],
        },
      },
    });
  }
}
