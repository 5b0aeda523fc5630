/**
 * What decisions cost at the endpoint (`decisions cost`): the decisions of a policy or a job, and
 * their tokens, endpoint time and price per decision, overall, by policy and by lane.
 */
export { type CostLine, type CostReport, CostTally, UNRECORDED_LANE } from "./CostTally.js";
export { type CostRecord, jobCostRecords, policyCostRecords } from "./readCostRecords.js";
export { sumJobUsage } from "./sumJobUsage.js";
