export type {
  CapacityGoals,
  EndpointReading,
  LaneLimits,
  PerLane,
  VariantReading,
} from "../../core/capacity/capacityTypes.js";
export {
  type GoalCapacityInputs,
  type GoalCapacityPlan,
  type GoalCapacityReason,
  type LaneDemand,
  planGoalCapacity,
  SCALING_REACTION_SECONDS,
  TAIL_SPARE_SECONDS,
} from "../../core/capacity/planGoalCapacity.js";
export {
  EVENT_SOURCE_CONCURRENCY,
  type LaneConcurrencyInputs,
  type LaneConcurrencyPlan,
  planLaneConcurrency,
} from "../../core/capacity/planLaneConcurrency.js";
export {
  type CapacityCheck,
  CapacityController,
  type CapacityControllerOptions,
  type ComponentCheck,
  type LaneConcurrencyChange,
} from "./CapacityController.js";
export type {
  ComponentCapacityReader,
  EndpointCapacityReader,
  LaneConcurrencySetter,
  QueueBacklogReader,
} from "./capacityPorts.js";
export {
  type CapacityControllerParts,
  createCapacityControllerDeps,
} from "./createCapacityControllerDeps.js";
export {
  type CapacityControllerDeps,
  createCapacityControllerHandler,
} from "./createCapacityControllerHandler.js";
export { emitCapacityCheck } from "./emitCapacityCheck.js";
export { CapacityCheckError, type CapacityCheckFailure } from "./errors.js";
export { LambdaEventSourceConcurrency } from "./LambdaEventSourceConcurrency.js";
export {
  type CapacityControllerConfig,
  readCapacityControllerConfig,
} from "./readCapacityControllerConfig.js";
export { SageMakerComponentReader } from "./SageMakerComponentReader.js";
export { SageMakerEndpointReader } from "./SageMakerEndpointReader.js";
export { QueueAttributeError, SqsBacklogReader } from "./SqsBacklogReader.js";
