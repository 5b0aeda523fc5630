import type { EnginePathSegment } from "../engine/errors.js";
import type { DecisionBatch } from "../engine/types.js";
import { formatFieldPath, type PathSegment } from "./fieldPath.js";
import type { Invocation } from "./types.js";

/**
 * Names, in the caller's wire format, the parts of the engine batch a request became: the engine
 * speaks of `["questions", 2, "options"]` and `["state"]`; the caller sent `decisions[2].options`,
 * `decision.options` or `questions.priority`.
 */
export interface EngineFieldMap {
  /** The caller's path of an engine path; paths the map does not know pass through unchanged. */
  pathOf(path: readonly EnginePathSegment[]): PathSegment[];
  /** The caller's field question `index` of the batch came from (for per-prompt limits). */
  question(index: number): string;
  /** The caller's field that holds all the questions (for per-request limits). */
  readonly request: string;
  /** The caller's field that holds the state. */
  readonly state: string;
}

/** How one wire format places the engine's questions and state. */
interface WireLayout {
  /** The caller's path of question `index`, and whether the engine's inner path (options, …) applies below it. */
  question(index: number): { path: PathSegment[]; sameShape: boolean };
  request: PathSegment[];
  state: PathSegment[];
}

/** The field map of a validated invocation; `batch` is the engine batch a System One request became. */
export function engineFieldMapFor(invocation: Invocation, batch?: DecisionBatch): EngineFieldMap {
  return fieldMapOf(layoutOf(invocation, batch));
}

/** Formats the caller's field of an engine path, e.g. `["questions", 1, "options"]` → `decisions[1].options`. */
export function translateEnginePath(path: readonly EnginePathSegment[], map: EngineFieldMap): string {
  return formatFieldPath(map.pathOf(path));
}

function layoutOf(invocation: Invocation, batch: DecisionBatch | undefined): WireLayout {
  switch (invocation.kind) {
    case "semif":
      if (invocation.shape === "single") {
        return {
          question: () => ({ path: ["decision"], sameShape: true }),
          request: ["decision"],
          state: ["decision", "state"],
        };
      }
      return {
        question: (index) => ({ path: ["decisions", index], sameShape: true }),
        request: ["decisions"],
        state: ["decisions", 0, "state"],
      };
    case "systemone": {
      const ids = Object.keys(invocation.request.questions);
      return {
        // A System One question's options come from its criteria in several forms: name the question.
        question: (index) => {
          const id = batch?.questions[index]?.id;
          return {
            path: id !== undefined && ids.includes(id) ? ["questions", id] : ["questions"],
            sameShape: false,
          };
        },
        request: ["questions"],
        state: ["state"],
      };
    }
    case "chat":
      return {
        question: (index) => ({ path: ["messages", index], sameShape: true }),
        request: ["messages"],
        state: ["messages"],
      };
  }
}

/** Engine field names that the wire formats spell differently. */
const WIRE_NAMES: Readonly<Record<string, string>> = { debiasRotations: "debias_rotations" };

function wireNameOf(segment: EnginePathSegment): EnginePathSegment {
  return typeof segment === "string" ? (WIRE_NAMES[segment] ?? segment) : segment;
}

function fieldMapOf(layout: WireLayout): EngineFieldMap {
  return {
    pathOf(path) {
      const [head, index, ...inner] = path;
      if (head === "questions" && typeof index === "number") {
        const question = layout.question(index);
        return question.sameShape ? [...question.path, ...inner.map(wireNameOf)] : question.path;
      }
      if (head === "questions" && index === undefined) return [...layout.request];
      if (head === "state") return [...layout.state, ...path.slice(1)];
      return [...path];
    },
    question: (index) => formatFieldPath(layout.question(index).path),
    request: formatFieldPath(layout.request),
    state: formatFieldPath(layout.state),
  };
}
