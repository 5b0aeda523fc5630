import { OperationError } from "../common/errors.js";

/** What a comparison was given cannot be compared (a file that is no results file, several candidates). */
export class CompareInputError extends OperationError {
  override name = "CompareInputError";
}
