/**
 * The job benchmark's parts: the large JSONL job object the scale test and the bench upload.
 */
export { buildJobObject, type JobObject, type JobObjectOptions } from "./buildJobObject.js";
