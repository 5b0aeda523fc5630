/**
 * The capacity controller's entry point (an EventBridge schedule invokes it every minute):
 * configuration read and validated once at cold start, then the middy handler. See
 * `readCapacityControllerConfig` for the variables.
 */
import { createCapacityControllerDeps } from "./createCapacityControllerDeps.js";
import { createCapacityControllerHandler } from "./createCapacityControllerHandler.js";
import { readCapacityControllerConfig } from "./readCapacityControllerConfig.js";

/** The Lambda handler (scheduled event → the check, its metrics published). */
export const handler = createCapacityControllerHandler(
  createCapacityControllerDeps(readCapacityControllerConfig(process.env)),
);
