/** Errors of the CDK app's configuration. */

/** One context knob that failed validation. */
export interface InfraConfigProblem {
  /** The context key, as written in `cdk.json` or after `-c`. */
  knob: string;
  /** What is wrong, for the person who set it. */
  message: string;
}

/**
 * The CDK context is invalid: thrown at synth, before any construct is created, naming every bad
 * knob at once.
 */
export class InfraConfigError extends Error {
  override name = "InfraConfigError";
  /** Every problem found, in knob order. */
  readonly problems: readonly InfraConfigProblem[];

  constructor(problems: readonly InfraConfigProblem[]) {
    super(
      `invalid CDK context (cdk.json "context" or -c):\n${problems
        .map((problem) => `  ${problem.knob}: ${problem.message}`)
        .join("\n")}`,
    );
    this.problems = problems;
  }
}

/** Why an image reference was refused. */
export type ImageReferenceFailure = "mutable-tag" | "not-ecr" | "malformed";

/**
 * A container image reference that SageMaker cannot pull reproducibly: not pinned by digest, or not
 * in Amazon ECR.
 */
export class ImageReferenceError extends Error {
  override name = "ImageReferenceError";
  readonly reason: ImageReferenceFailure;
  /** The reference as given. */
  readonly reference: string;

  constructor(message: string, reason: ImageReferenceFailure, reference: string) {
    super(message);
    this.reason = reason;
    this.reference = reference;
  }
}

/**
 * The policies the functions would bundle do not load (or there are none): the synth stops, with
 * every problem the policy loader found (file, line, field).
 */
export class PolicyCatalogueError extends Error {
  override name = "PolicyCatalogueError";
  /** The policy folder read. */
  readonly policyDir: string;

  constructor(policyDir: string, detail: string, options?: { cause?: unknown }) {
    super(`the policies in ${policyDir} do not load; fix them and synth again:\n${detail}`, options);
    this.policyDir = policyDir;
  }
}

/** The review console's static site did not build at synth (its sources, or esbuild). */
export class ConsoleSiteBuildError extends Error {
  override name = "ConsoleSiteBuildError";
  constructor(detail: string, options?: ErrorOptions) {
    super(
      `the review console's page did not build (console/writeConsoleSiteMain.ts): ${detail}\nFix the console's sources (console/web/) and synth again.`,
      options,
    );
  }
}
