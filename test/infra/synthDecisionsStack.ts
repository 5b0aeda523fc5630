import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Validations } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { type DecisionsSources, DecisionsStack, readInfraSettings } from "../../infra/index.js";

/** The repository root (build context of the images, `package-lock.json`, `policies/`). */
export const PROJECT_ROOT = packageRoot();

/** The real handler entries the stack bundles. */
export const HANDLER_ENTRIES = {
  decide: join(PROJECT_ROOT, "functions", "decide", "handler.ts"),
  ingest: join(PROJECT_ROOT, "functions", "ingest", "handler.ts"),
} as const;

/**
 * The feature flags of `cdk.json` (its `@aws-cdk/…` context keys): the CLI gives them to the app,
 * `new App()` in a test does not, so they are passed here and tests see what `cdk synth` makes.
 */
export const CDK_JSON_FEATURE_FLAGS: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(
    (JSON.parse(readFileSync(join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> })
      .context,
  ).filter(([key]) => key.startsWith("@")),
);

/** Options of {@link synthDecisionsStack}. */
export interface SynthOptions {
  /** CDK context (as `-c` or cdk.json would give it). */
  context?: Record<string, unknown>;
  /** Bundle the functions with esbuild (slower). Default false: bundling is skipped. */
  bundle?: boolean;
  /** Register cdk-nag's AwsSolutions pack. Default false. */
  nag?: boolean;
  sources?: Partial<DecisionsSources>;
}

/** A synthesised stack and where its cloud assembly is (removed by `dispose`). */
export interface SynthesisedStack {
  app: App;
  stack: DecisionsStack;
  /** The stack's template (synthesises without the validation plugins on first use). */
  readonly template: Template;
  outdir: string;
  dispose(): void;
}

/**
 * Builds the app as `infra/app.ts` does, into a temporary cloud assembly. The handler entries must
 * exist (NodejsFunction checks them even when bundling is skipped).
 */
export function synthDecisionsStack(options: SynthOptions = {}): SynthesisedStack {
  for (const entry of Object.values(HANDLER_ENTRIES)) {
    if (!existsSync(entry)) throw new Error(`${entry} does not exist yet: the stack bundles it`);
  }
  const outdir = mkdtempSync(join(tmpdir(), "decisions-cdk-"));
  const app = new App({
    outdir,
    context: {
      ...CDK_JSON_FEATURE_FLAGS,
      ...(options.bundle === true ? {} : { "aws:cdk:bundling-stacks": [] }),
      ...options.context,
    },
  });
  if (options.nag === true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const settings = readInfraSettings(app.node);
  const stack = new DecisionsStack(app, settings.stackName, {
    settings,
    sources: { projectRoot: PROJECT_ROOT, ...options.sources },
  });
  let template: Template | undefined;
  return {
    app,
    stack,
    get template() {
      template ??= Template.fromStack(stack);
      return template;
    },
    outdir,
    dispose: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
