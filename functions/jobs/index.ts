export { type JobObject, jobIdOf } from "./jobIdOf.js";
export { jobsTableDefinition } from "./jobsTable.js";
