/** `decisions preflight`: what a first `cdk deploy` would hit, checked before it. */

export type { BootstrapFinding } from "./checkBootstrap.js";
export { checkBootstrap, MIN_BOOTSTRAP_VERSION } from "./checkBootstrap.js";
export { checkEndpointQuotas } from "./checkEndpointQuotas.js";
export { checkImageRegion } from "./checkImageRegion.js";
export { checkModelData } from "./checkModelData.js";
export type { PreflightCheck, PreflightPlan } from "./PreflightCheck.js";
export type { PreflightClients } from "./runPreflight.js";
export { runPreflight } from "./runPreflight.js";
