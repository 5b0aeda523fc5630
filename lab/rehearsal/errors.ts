/** Base class of the rehearsal's own errors. */
export class RehearsalError extends Error {
  override name = "RehearsalError";
}

/** A template value the rehearsal cannot resolve (`local/iam/TemplateResolver.ts`, shared with the local stack). */
export { TemplateResolveError } from "../../local/errors.js";

/**
 * A call the rehearsal's model of SageMaker's control plane or Lambda's event source mappings
 * cannot answer (`controllerTick.ts`): the controller makes a call the model does not know, or names
 * a resource the template lacks.
 */
export class ModelledServiceError extends RehearsalError {
  override name = "ModelledServiceError";
}
