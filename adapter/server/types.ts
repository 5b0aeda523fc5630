/**
 * Shared types of the HTTP adapter: validation problems, request limits and the validated
 * invocations the server hands to the engine.
 */
import type { SystemOneRequest } from "../engine/systemOne/systemOneTypes.js";
import type { ChatCompletionRequest, DecisionBatch } from "../engine/types.js";

/** One thing wrong with a request, named by its field path (e.g. `decision.options[2].id`). */
export interface Problem {
  /** Path of the offending field in the request body; `body` for the body as a whole. */
  field: string;
  message: string;
}

/** The outcome of validating a request body: the typed value, or every problem found. */
export type Validation<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

/** Limits a request is checked against before it reaches the engine. */
export interface RequestLimits {
  /** Most options of one question (already capped by the engine's label alphabet). */
  maxOptions: number;
  /** Most decisions of a `decisions` request, questions of a System One request, or chat messages. */
  maxQuestions: number;
  /** Most tokens of one prompt (already capped by the engine's context size). */
  maxPromptTokens: number;
  /** Most tokens one request may evaluate (the shared prefix once plus every suffix). */
  maxRequestTokens: number;
  /** Most tokens a chat completion may generate (`max_tokens`). */
  maxCompletionTokens: number;
}

/** A validated SemIf request: one `decision` or a shared-state `decisions` list. */
export interface SemIfInvocation {
  kind: "semif";
  /** `single` answers `{result}`, `shared` answers `{results, timing}`. */
  shape: "single" | "shared";
  batch: DecisionBatch;
}

/** A validated System One request. */
export interface SystemOneInvocation {
  kind: "systemone";
  request: SystemOneRequest;
}

/** A validated OpenAI chat completions request (the standard path). */
export interface ChatInvocation {
  kind: "chat";
  request: ChatCompletionRequest;
  /** The `model` the caller named, echoed back; the loaded model's file name when absent. */
  model: string | undefined;
}

/** Any validated invocation. */
export type Invocation = SemIfInvocation | SystemOneInvocation | ChatInvocation;

/** Which wire formats a path accepts. `/invocations` accepts all three, decided by the body's shape. */
export type InvocationKind = Invocation["kind"];
