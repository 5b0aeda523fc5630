/** What the decision owners' operations share: AWS client settings, policy loading, error base classes. */
export { type AwsClientConfig, type AwsTarget, awsClientConfig } from "./awsClientConfig.js";
export { InputFileError, OperationError, UnknownPolicyError } from "./errors.js";
export { defaultPolicyDir, loadNamedPolicy } from "./loadNamedPolicy.js";
