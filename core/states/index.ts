/** The whole states of items sent to review, kept for the reviewer (the outcome holds a preview). */
export { StateArchiveError } from "./errors.js";
export { DEFAULT_STATE_PREFIX, S3StateArchive, type S3StateArchiveOptions } from "./S3StateArchive.js";
