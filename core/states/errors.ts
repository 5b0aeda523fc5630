import { PipelineError } from "../common/errors.js";

/** A state could not be kept as asked (its text is not the one its name says). */
export class StateArchiveError extends PipelineError {
  override name = "StateArchiveError";
}
