import { PipelineError } from "../../common/errors.js";

/**
 * The candidate a policy's `shadow` section names has no endpoint in this deployment: `endpoint:
 * candidate` without `SHADOW_ENDPOINT_NAME` (or `decisions up` without `--shadow-model`). Kept as
 * the shadow record's failure; the live outcome stands.
 */
export class CandidateEndpointAbsentError extends PipelineError {
  override name = "CandidateEndpointAbsentError";
  constructor(
    /** The candidate's name. */
    readonly candidate: string,
    /** Which endpoint the section asked for. */
    readonly endpoint: "candidate" | "live",
  ) {
    super(
      endpoint === "candidate"
        ? `no candidate endpoint is configured for candidate "${candidate}": set SHADOW_ENDPOINT_NAME (the CDK knob shadowModelDataUrl, or decisions up --shadow-model), or write endpoint: live in the policy's shadow section`
        : `candidate "${candidate}" asks other questions than the live policy, so the live answer cannot serve it: give it an endpoint (endpoint: candidate)`,
    );
  }
}

/**
 * The live batch's work ended, and the grace it leaves the shadow step (a share of the live work's
 * own time) passed, before the candidate answered: its call is abandoned so that it never holds the
 * live invocation longer. Kept as the shadow record's failure; the live outcome stands.
 */
export class ShadowAbandonedError extends PipelineError {
  override name = "ShadowAbandonedError";
  constructor(
    readonly candidate: string,
    /** The grace the live batch left, in milliseconds. */
    readonly graceMs: number,
  ) {
    super(
      `candidate "${candidate}" had not answered ${Math.round(graceMs)} ms after the live batch's work ended (the grace a shadow step gets, a share of the live work's own time): abandoned so that it never delays live outcomes; the live outcome stands`,
    );
  }
}

/** The candidate did not answer within the shadow step's own budget (`SHADOW_TIMEOUT_MS`). */
export class CandidateTimeoutError extends PipelineError {
  override name = "CandidateTimeoutError";
  constructor(
    readonly candidate: string,
    /** The budget, in milliseconds. */
    readonly budgetMs: number,
  ) {
    super(
      `candidate "${candidate}" gave no answer within the shadow budget of ${budgetMs} ms (SHADOW_TIMEOUT_MS); the live outcome stands`,
    );
  }
}
