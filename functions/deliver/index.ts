/** The deliver function's units (its entry is `handler.ts`). */
export { type DeliverDeps, type DeliveryMessage, deliverRecords, queueUrlOf } from "./deliverRecords.js";
export { type DeliverConfig, readDeliverConfig } from "./readDeliverConfig.js";
