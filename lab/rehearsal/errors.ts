/** Base class of the rehearsal's own errors. */
export class RehearsalError extends Error {
  override name = "RehearsalError";
}

/**
 * A template value the rehearsal cannot resolve (an intrinsic function it does not model, or a
 * logical id the template lacks): the template is not one this CDK app synthesizes; synthesize it
 * again, or extend `TemplateResolver` for the new construct.
 */
export class TemplateResolveError extends RehearsalError {
  override name = "TemplateResolveError";
}
