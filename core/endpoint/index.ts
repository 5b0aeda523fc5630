export { classifyEndpointError } from "./classifyEndpointError.js";
export { createSageMakerRuntimeClient } from "./createSageMakerRuntimeClient.js";
export {
  EndpointClient,
  type EndpointClientOptions,
  type EndpointInvocation,
  type InvokeOptions,
} from "./EndpointClient.js";
export {
  EndpointBusyError,
  type EndpointBusyReason,
  EndpointConfigurationError,
  type EndpointFailure,
  InvalidEndpointResponseError,
  isCapacityFailure,
  PermanentEndpointError,
  TransientEndpointError,
} from "./errors.js";
export { isBusyFailure } from "./isBusyFailure.js";
export { retryAfterMsOf } from "./retryAfterMsOf.js";
