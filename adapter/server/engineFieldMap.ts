import type { DecisionBatch } from "../engine/types.js";
import { formatFieldPath } from "./fieldPath.js";
import type { Invocation } from "./types.js";

/**
 * Names, in the caller's wire format, the parts of the engine batch a request became: the engine
 * speaks of `questions[2]` and `state`; the caller sent `decisions[2]`, `decision` or `questions.priority`.
 */
export interface EngineFieldMap {
  /**
   * The request field question `index` of the batch came from; `inner` (e.g. `.options[1]`) is
   * appended where the wire format has the same inner shape as the engine's question.
   */
  question(index: number, inner?: string): string;
  /** The field that holds all the questions (for per-request limits). */
  readonly request: string;
  /** The field that holds the state. */
  readonly state: string;
}

/** The field map of a validated invocation; `batch` is the engine batch a System One request became. */
export function engineFieldMapFor(invocation: Invocation, batch?: DecisionBatch): EngineFieldMap {
  if (invocation.kind === "semif" && invocation.shape === "single") {
    return {
      question: (_index, inner = "") => `decision${inner}`,
      request: "decision",
      state: "decision.state",
    };
  }
  if (invocation.kind === "semif") {
    return {
      question: (index, inner = "") => `decisions[${index}]${inner}`,
      request: "decisions",
      state: "decisions[0].state",
    };
  }
  if (invocation.kind === "systemone") {
    const ids = Object.keys(invocation.request.questions);
    return {
      question: (index) => {
        const id = batch?.questions[index]?.id;
        return id !== undefined && ids.includes(id) ? formatFieldPath(["questions", id]) : "questions";
      },
      request: "questions",
      state: "state",
    };
  }
  return { question: (index) => `messages[${index}]`, request: "messages", state: "messages" };
}

const ENGINE_QUESTION = /^questions\[(\d+)\](.*)$/s;

/**
 * Translates a field the engine named (`questions[1].options`, `state`, `state.customer`) into the
 * caller's wire format. Fields the map does not know pass through unchanged.
 */
export function translateEngineField(field: string, map: EngineFieldMap): string {
  const question = ENGINE_QUESTION.exec(field);
  if (question !== null) {
    return map.question(Number(question[1]), question[2] ?? "");
  }
  if (field === "questions") return map.request;
  if (field === "state" || field.startsWith("state.") || field.startsWith("state[")) {
    return map.state + field.slice("state".length);
  }
  return field;
}
