/** Sending work items through the front door as a signed webhook sender (`decisions submit --url`). */
export { type PostedItem, type PostWorkItemsOptions, postWorkItems } from "./postWorkItems.js";
