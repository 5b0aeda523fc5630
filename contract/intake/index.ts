/** The front door's contract: its routes, bounds and answers, shared by the router, the CDK app and its clients. */
export {
  type AcceptedAnswer,
  AcceptedAnswerSchema,
  type AcceptedItem,
  type IntakeErrorAnswer,
  IntakeErrorAnswerSchema,
  type ItemProblem,
  type OutcomeLocation,
} from "./intakeAnswers.js";
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  INTAKE_IDEMPOTENCY_SECONDS,
  MAX_IDEMPOTENCY_KEY_CHARS,
  MAX_INTAKE_BODY_BYTES,
  MAX_INTAKE_ITEMS,
  WEBHOOK_TOLERANCE_SECONDS,
} from "./intakeLimits.js";
export {
  INTAKE_ROUTES,
  type IntakeAuth,
  type IntakeRoute,
  intakePathOf,
  matchIntakeRoute,
} from "./intakeRoutes.js";
