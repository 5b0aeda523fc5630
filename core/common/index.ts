export {
  describeIssues,
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  MAX_POLICY_NAME_BYTES,
  type WorkItemInput,
  WorkItemSchema,
} from "../../contract/workItem/WorkItemSchema.js";
export { type Clock, systemClock } from "./Clock.js";
export { ConfigError, type ConfigProblem } from "./ConfigError.js";
export { Deadline } from "./Deadline.js";
export { parseEnvironment } from "./envSchemas.js";
export {
  ConfigurationError,
  type ConfigurationPart,
  DeadlineExceededError,
  PermanentError,
  PipelineError,
  RetriesExhaustedError,
  type RetryStopReason,
  TransientError,
  UnknownPolicyError,
} from "./errors.js";
export { httpStatusOf, isTransientNetworkError } from "./isTransientNetworkError.js";
export { mapBounded } from "./mapBounded.js";
export { queryPages } from "./queryPages.js";
export { RetryBudget, type RetryBudgetOptions } from "./RetryBudget.js";
export {
  type RetryEvent,
  RetryPolicy,
  type RetryPolicyOptions,
  type RetryRunOptions,
} from "./RetryPolicy.js";
export { sha256Hex } from "./sha256Hex.js";
export { type StreamedTableShape, streamedTableDefinition } from "./streamedTableDefinition.js";
export { BYTE_ORDER_MARK, stripByteOrderMark } from "./stripByteOrderMark.js";
export { errorNameOf, tableErrorHint } from "./tableErrorHint.js";
export { TRUNCATION_MARKER, truncateText } from "./truncateText.js";
