/**
 * `decisions preflight`: checks, before `cdk deploy`, what a first deploy would hit — the bootstrap
 * stack, the model data and its manifest, each pool's endpoint quota, the standard image's region —
 * from the same CDK context the app reads (`cdk.json`, overridden with `-c knob=value`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CloudFormationClient } from "@aws-sdk/client-cloudformation";
import { S3Client } from "@aws-sdk/client-s3";
import { ServiceQuotasClient } from "@aws-sdk/client-service-quotas";
import { App } from "aws-cdk-lib";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { LANES } from "../../contract/lanes/lanes.js";
import { InfraConfigError } from "../../infra/config/errors.js";
import type { InfraSettings } from "../../infra/config/InfraSettings.js";
import { readInfraSettings } from "../../infra/config/readInfraSettings.js";
import { awsClientConfig } from "../../operations/common/awsClientConfig.js";
import { type PreflightPlan, runPreflight } from "../../operations/preflight/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import { CONTEXT_FLAG, readContextOverrides } from "../readContextOverrides.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions preflight --region <region> [-c knob=value ...] [--account <id>] [--json] [--endpoint-url <url>]

Checks, before npx cdk deploy, what a first deploy hits, with read-only calls:
  bootstrap stack        CDKToolkit exists in the region, usable, bootstrap version 6 or later
  model data             the bucket is in the region; the model.tar.gz exists, or for an unpacked
                         prefix (modelDataCompression=none) the manifest and the GGUF it names, with
                         its size (and SHA-256 when S3 holds a full-object checksum)
  endpoint quotas        "<type> for endpoint usage" covers maxInstances for each pool's instance type
                         (2 × maxInstances with layout=lanes-from-zero: each lane's copies on their own)
  standard image region  the standard endpoint's image is in the deploy region
The context is cdk.json's, with -c overrides as cdk synth takes them. Exit code 1 when a check fails.

options:
  -c, --context <k=v>    a CDK context value (repeatable), e.g. -c accelerator=gpu -c profile=production
  --region <region>      the deploy region (default: AWS_REGION / the SDK's configuration)
  --account <id>         the deploy account, for {account} in modelDataUrl (default: the bootstrap stack's)
  --json                 one JSON object per check
  --endpoint-url <url>   send every call there (a test server on 127.0.0.1)
`;

const FLAGS = {
  context: CONTEXT_FLAG,
  region: { type: "string" },
  account: { type: "string" },
  json: { type: "boolean" },
  "endpoint-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Options of {@link createPreflightCommand}. */
export interface PreflightCommandOptions extends Partial<CliOutput> {
  /** Where `cdk.json` is. Default: the package root. */
  projectRoot?: string;
}

/** Builds the `decisions preflight` command writing to the given streams (tests pass their own). */
export function createPreflightCommand(options: PreflightCommandOptions = {}): CliCommand {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values } = parseCommandArgs({ args, options: FLAGS, usage: USAGE });
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      const region = values.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
      if (region === undefined || region === "") {
        throw new UsageError("--region is required (or AWS_REGION)", { usage: USAGE });
      }
      const settings = readSettings(options.projectRoot ?? packageRoot(), values.context ?? []);
      const plan = planOf(settings, region, values.account);
      const config = awsClientConfig({ region, endpointUrl: values["endpoint-url"] });
      const clients = {
        // Path-style addressing: a bucket name in the host would not resolve on a test server.
        s3: new S3Client({ ...config, forcePathStyle: values["endpoint-url"] !== undefined }),
        cloudFormation: new CloudFormationClient(config),
        serviceQuotas: new ServiceQuotasClient(config),
      };
      try {
        const checks = await runPreflight(plan, clients);
        for (const check of checks) {
          stdout.write(
            values.json === true
              ? `${JSON.stringify(check)}\n`
              : `${check.status.toUpperCase().padEnd(4)}  ${check.name}: ${check.detail}\n`,
          );
        }
        const failed = checks.filter((check) => check.status === "fail").length;
        if (failed > 0) stderr.write(`${failed} check(s) failed: the deploy would fail\n`);
        return failed > 0 ? 1 : 0;
      } finally {
        for (const client of Object.values(clients)) client.destroy();
      }
    },
  };
}

/** The `decisions preflight` command, writing to the process's stdout and stderr. */
export const preflightCommand: CliCommand = createPreflightCommand();

/** cdk.json's context with the `-c` overrides, validated as the app validates it. */
function readSettings(projectRoot: string, overrides: readonly string[]): InfraSettings {
  const cdkJson = JSON.parse(readFileSync(join(projectRoot, "cdk.json"), "utf8")) as {
    context?: Record<string, unknown>;
  };
  const context: Record<string, unknown> = { ...cdkJson.context, ...readContextOverrides(overrides, USAGE) };
  try {
    return readInfraSettings(new App({ context }).node);
  } catch (error) {
    if (error instanceof InfraConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** What the stack would deploy: the instances each instance type may need, the model, the image. */
function planOf(settings: InfraSettings, region: string, account: string | undefined): PreflightPlan {
  const needs = new Map<string, number>();
  const decisionTypes =
    settings.accelerator === "cpu"
      ? [settings.cpuInstanceType]
      : [...settings.gpuInstancePools, ...(settings.cpuFallbackPool ? [settings.cpuInstanceType] : [])];
  // Any one pool may have to run every instance (the others may have no capacity). With a component
  // per lane, each lane's copies may reach maxInstances, each on an instance of its own.
  const instances =
    settings.layout === "lanes-from-zero" ? LANES.length * settings.maxInstances : settings.maxInstances;
  for (const type of decisionTypes) needs.set(type, instances);
  if (settings.standardEndpoint) {
    needs.set(settings.standardInstanceType, (needs.get(settings.standardInstanceType) ?? 0) + 1);
  }
  return {
    region,
    ...(account === undefined ? {} : { account }),
    modelDataUrl: settings.modelDataUrl,
    pools: [...needs].map(([instanceType, instances]) => ({ instanceType, instances })),
    ...(settings.standardEndpoint && settings.standardImage !== undefined
      ? { standardImageRegion: settings.standardImage.region }
      : {}),
  };
}
