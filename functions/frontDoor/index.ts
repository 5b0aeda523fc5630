/** The front door function's units (the handler itself is `handler.ts`). */
export { createFrontDoorHandler, type FrontDoorHandlerOptions } from "./createFrontDoorHandler.js";
export { type FrontDoorConfig, readFrontDoorConfig } from "./readFrontDoorConfig.js";
export { readWebhookSecret } from "./readWebhookSecret.js";
