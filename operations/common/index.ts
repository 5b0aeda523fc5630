/** What the decision owners' operations share: AWS client settings, policy loading, `decisions up`'s saved line, error base classes. */
export { type AwsClientConfig, type AwsTarget, awsClientConfig } from "./awsClientConfig.js";
export { InputFileError, OperationError, PolicyNotInFolderError, UpInfoError } from "./errors.js";
export { defaultPolicyDir, loadNamedPolicy } from "./loadNamedPolicy.js";
export { readUpLine, type UpLine } from "./readUpLine.js";
