/**
 * The units behind the decision owners' commands — `decisions submit`, `dlq`, `outcomes`, `jobs`
 * and `classify` — one folder each: `queue/` (send work items and events, list and redrive the
 * dead-letter queue), `outcomes/` (export outcomes, send items to be decided again; reading and reviewing them is
 * the table's home's, `core/outcomes`), `jobs/` (read and
 * wait for batch jobs, fetch their results), `classify/`
 * (offline batch classification through the pipeline's own units), `compare/` (shadow records
 * with their live outcomes, or two results files, read for `decisions shadow report` and `compare`),
 * `cost/` (what decisions cost at the endpoint), `common/` (AWS client
 * settings, policy loading, errors). Import a folder's index; this one lists the folders' main names.
 */
export { classifyItems, InProcessEndpoint, ResultsFile, readItemLines } from "./classify/index.js";
export { awsClientConfig, defaultPolicyDir, loadNamedPolicy, OperationError } from "./common/index.js";
export { CostTally, jobCostRecords, policyCostRecords } from "./cost/index.js";
export { readJobResults, waitForJob } from "./jobs/index.js";
export { exportOutcomes, sendRedecides, toLabelledDecision } from "./outcomes/index.js";
export { listDeadLetters, redriveDeadLetters, submitMessages } from "./queue/index.js";
