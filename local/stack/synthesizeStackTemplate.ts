import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App } from "aws-cdk-lib";
import { DecisionsStack, readInfraSettings } from "../../infra/index.js";
import type { CfnTemplate } from "./cfnTemplate.js";

/** A template synthesized from the CDK app, and the stack name it was made for. */
export interface SynthesizedTemplate {
  template: CfnTemplate;
  stackName: string;
}

/**
 * Synthesizes the stack as `cdk synth` does with cdk.json's context (feature flags and knobs) and
 * the given overrides (`-c knob=value`), without bundling the functions or building the images
 * (neither changes the template's resources, names, grants or settings). The cloud assembly goes to
 * a temporary folder, removed afterwards. Loads the CDK app (aws-cdk-lib, a development
 * dependency): callers load this module only when they synthesize (`loadStackTemplate` caches the
 * result).
 *
 * @throws the CDK app's own errors (a knob out of range, a policy that does not load).
 */
export function synthesizeStackTemplate(
  projectRoot: string,
  overrides: Readonly<Record<string, unknown>> = {},
): SynthesizedTemplate {
  const cdkJson = JSON.parse(readFileSync(join(projectRoot, "cdk.json"), "utf8")) as {
    context?: Record<string, unknown>;
  };
  const outdir = mkdtempSync(join(tmpdir(), "decisions-synth-"));
  try {
    const app = new App({
      outdir,
      context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [], ...overrides },
    });
    const settings = readInfraSettings(app.node);
    const stack = new DecisionsStack(app, settings.stackName, { settings, sources: { projectRoot } });
    const artifact = app.synth().getStackArtifact(stack.artifactId);
    return { template: artifact.template as CfnTemplate, stackName: stack.stackName };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
