/**
 * The System One decision API shapes (docs/http-api.md): one state, several typed
 * questions, one answer per question. The shapes are the wire module's zod schemas; only the
 * request's state is wider here (a {@link DecisionState}, which may be raw JSON text).
 */
import type { SystemOneRequest as WireSystemOneRequest } from "../../../contract/wire/systemOneSchemas.js";
import type { DecisionState } from "../types.js";

export type {
  ChoiceAnswer,
  ChoiceQuestion,
  NoulAnswer,
  NoulQuestion,
  ScoreAnswer,
  ScoreQuestion,
  SystemOneAnswer,
  SystemOneQuestion,
  SystemOneResponse,
} from "../../../contract/wire/systemOneSchemas.js";

/** A System One request as the engine takes it: questions answered in insertion order. */
export interface SystemOneRequest extends Omit<WireSystemOneRequest, "state"> {
  state: DecisionState;
}
