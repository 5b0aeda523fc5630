import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Template } from "aws-cdk-lib/assertions";
import type { SynthesisMessage } from "aws-cdk-lib/cx-api";
import type { DecisionsStack } from "../../infra/index.js";
import { type SynthOptions, synthDecisionsStack } from "./synthDecisionsStack.js";

/** A pinned standard image of the stack's default region-agnostic tests. */
export const STANDARD_IMAGE = `763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp@sha256:${"ab12".repeat(16)}`;

/** The template variants every infra test file may ask for (one synth each, per test file). */
export const VARIANTS = {
  /** cdk.json as it is. */
  cpu: {},
  /** GPU pools with the CPU fallback pool. */
  gpu: { accelerator: "gpu" },
  /** GPU pools, the standard endpoint and an alarm e-mail. */
  standard: {
    accelerator: "gpu",
    standardEndpoint: "true",
    standardImage: STANDARD_IMAGE,
    alarmEmail: "ops@example.com",
  },
  /** The standard endpoint on a GGUF its container downloads from a hub repository. */
  standardHub: {
    standardEndpoint: "true",
    standardImage: STANDARD_IMAGE,
    standardHfRepo: "Qwen/Qwen3-0.6B-GGUF",
    standardHfFile: "Qwen3-0.6B-Q8_0.gguf",
  },
  /** The production profile with unpacked model data in a KMS-encrypted bucket. */
  production: {
    profile: "production",
    modelDataCompression: "none",
    modelDataUrl: "s3://decisions-models-{account}-{region}/qwen3/",
    modelKmsKeyArn: "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
  },
  /** cdk.json with the shadow step's candidate endpoint (a second model). */
  shadow: { shadowModelDataUrl: "s3://decisions-models-{account}-{region}/candidate/model.tar.gz" },
  /** An inference component per lane: interactive from 1 copy, bulk from 0. */
  fromZero: { layout: "lanes-from-zero" },
} as const satisfies Record<string, Record<string, string>>;

/** A name of {@link VARIANTS}. */
export type VariantName = keyof typeof VARIANTS;

/** One finding of a validation plugin (CloudFormation's own checks, or cdk-nag). */
export interface ValidationFinding {
  plugin: string;
  rule: string;
  severity: string | undefined;
  description: string;
  paths: string[];
}

/** A variant after a full `app.synth()`, validation plugins included. */
export interface SynthesizedVariant {
  stack: DecisionsStack;
  template: Template;
  /** Every finding of every validation plugin, from `validation-report.json`. */
  findings: readonly ValidationFinding[];
  /** What `app.synth()` threw (a validation failure), if anything. */
  error: Error | undefined;
  /** The stack's annotations (errors, warnings, info) in the cloud assembly; none when synth threw. */
  messages: readonly SynthesisMessage[];
}

const cache = new Map<string, SynthesizedVariant>();

/**
 * Synthesizes a variant as `cdk synth` does (feature flags of cdk.json, CloudFormation validation,
 * cdk-nag with `nag: true`), once per test process: the tests only read the result. cdk-nag adds
 * its findings to the validation report and leaves the template as it is (with and without it the
 * templates compared equal for every variant), so a test that does not ask for cdk-nag takes a
 * synth made with it when the process has one (the unit run loads many infra files into one
 * process). It does not register cdk-nag otherwise: loading it costs about 2 s of CPU.
 */
export function synthVariant(name: VariantName, options: { nag?: boolean } = {}): SynthesizedVariant {
  const nag = options.nag === true;
  const cached = cache.get(`${name}:nag`) ?? (nag ? undefined : cache.get(name));
  if (cached !== undefined) return cached;
  const result = synthOnce({ context: VARIANTS[name], nag });
  cache.set(nag ? `${name}:nag` : name, result);
  return result;
}

/** One full synth of the given options (no cache), its findings and template. */
export function synthOnce(options: SynthOptions): SynthesizedVariant {
  const synthesised = synthDecisionsStack(options);
  try {
    let error: Error | undefined;
    let template: Template | undefined;
    let messages: readonly SynthesisMessage[] = [];
    try {
      const artifact = synthesised.app.synth().getStackArtifact(synthesised.stack.artifactId);
      template = Template.fromJSON(artifact.template as Record<string, unknown>);
      messages = artifact.messages;
    } catch (caught) {
      error = caught as Error;
    }
    return {
      stack: synthesised.stack,
      template: template ?? Template.fromStack(synthesised.stack),
      findings: readFindings(synthesised.outdir),
      error,
      messages,
    };
  } finally {
    synthesised.dispose();
  }
}

function readFindings(outdir: string): ValidationFinding[] {
  const path = join(outdir, "validation-report.json");
  if (!existsSync(path)) return [];
  const report = JSON.parse(readFileSync(path, "utf8")) as {
    pluginReports?: Array<{
      pluginName: string;
      violations: Array<{
        ruleName: string;
        severity?: string;
        description: string;
        violatingConstructs?: Array<{ constructPath?: string }>;
      }>;
    }>;
  };
  return (report.pluginReports ?? []).flatMap((plugin) =>
    plugin.violations.map((violation) => ({
      plugin: plugin.pluginName,
      rule: violation.ruleName,
      severity: violation.severity,
      description: violation.description,
      paths: (violation.violatingConstructs ?? []).map((construct) => construct.constructPath ?? "?"),
    })),
  );
}
