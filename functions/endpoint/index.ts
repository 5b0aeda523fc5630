export { classifyEndpointError } from "./classifyEndpointError.js";
export { createSageMakerRuntimeClient } from "./createSageMakerRuntimeClient.js";
export {
  EndpointClient,
  type EndpointClientOptions,
  type EndpointInvocation,
  type InvokeOptions,
} from "./EndpointClient.js";
export {
  type EndpointFailure,
  InvalidEndpointResponseError,
  PermanentEndpointError,
  TransientEndpointError,
} from "./errors.js";
