/** Base class of the rehearsal's own errors. */
export class RehearsalError extends Error {
  override name = "RehearsalError";
}

/** A template value the rehearsal cannot resolve (`local/iam/TemplateResolver.ts`, shared with the local stack). */
export { TemplateResolveError } from "../../local/errors.js";
