import type { Token } from "node-llama-cpp";
import { JsonText } from "../../../contract/wire/JsonText.js";
import type { LlamaBuild } from "../builds/llamaBuilds.js";
import {
  InvalidBatchError,
  InvalidDecisionError,
  ReservedTokenError,
  TokenBudgetError,
  TooManyOptionsError,
} from "../errors.js";
import type { DecisionBatch, DecisionState } from "../types.js";

/**
 * The messages between {@link PromptWorker} and its thread (`promptWorkerMain`). Everything crosses
 * by structured clone, which keeps plain data only: a {@link JsonText} state travels as its text
 * and the engine's error classes as their fields, and both are rebuilt on the other side.
 */

/** What the thread needs to prepare prompts as the scorer does (its `workerData`). */
export interface PromptWorkerInit {
  modelPath: string;
  /** The llama.cpp build the scorer runs on: the thread loads the same one (the same tokenizer). */
  llamaBuild: LlamaBuild;
  labels: readonly string[];
  labelTokens: readonly Token[];
  contextSize: number;
}

/** A batch as it crosses: the state tagged so a {@link JsonText} is rebuilt as one. */
export interface BatchMessage {
  id: number;
  batch: Omit<DecisionBatch, "state"> & { state: { jsonText: string } | { value: DecisionState } };
}

/** One invalid-decision problem as it crosses. */
export interface ProblemMessage {
  kind: "invalid" | "tokens" | "reserved" | "options";
  path: (string | number)[];
  reason: string;
  tokens?: number;
  limit?: number;
  token?: string;
  count?: number;
  max?: number;
}

/** The thread's answer to one {@link BatchMessage}. */
export type ReplyMessage =
  | { id: number; ok: true; prompts: unknown[] }
  | { id: number; ok: false; problems: ProblemMessage[] }
  | { id: number; ok: false; failure: string };

/** The batch with its state tagged for the crossing. */
export function batchMessageOf(id: number, batch: DecisionBatch): BatchMessage {
  const state = batch.state instanceof JsonText ? { jsonText: batch.state.text } : { value: batch.state };
  return { id, batch: { ...batch, state } };
}

/** The batch as sent, its {@link JsonText} state rebuilt. */
export function batchOfMessage(message: BatchMessage): DecisionBatch {
  const { state } = message.batch;
  return { ...message.batch, state: "jsonText" in state ? new JsonText(state.jsonText) : state.value };
}

/** The problems of an engine error (one, or each of an {@link InvalidBatchError}). */
export function problemsOfError(error: InvalidDecisionError): ProblemMessage[] {
  const all = error instanceof InvalidBatchError ? error.problems : [error];
  return all.map((problem) => {
    const base = { path: [...problem.path], reason: problem.reason };
    if (problem instanceof TokenBudgetError)
      return { ...base, kind: "tokens", tokens: problem.tokens, limit: problem.limit };
    if (problem instanceof ReservedTokenError) return { ...base, kind: "reserved", token: problem.token };
    if (problem instanceof TooManyOptionsError)
      return { ...base, kind: "options", count: problem.count, max: problem.max };
    return { ...base, kind: "invalid" };
  });
}

/** The engine error the problems came from: the same classes, paths and reasons. */
export function errorOfProblems(problems: readonly ProblemMessage[]): InvalidDecisionError {
  const errors = problems.map((problem) => {
    const rebuilt = rebuild(problem);
    // The subclasses write their reason from their fields; the thread's own text is kept as sent.
    return rebuilt.reason === problem.reason
      ? rebuilt
      : new InvalidDecisionError(problem.path, problem.reason);
  });
  const [first] = errors;
  if (first === undefined) throw new RangeError("no problems to rebuild an error from");
  return errors.length === 1 ? first : new InvalidBatchError(errors);
}

function rebuild(problem: ProblemMessage): InvalidDecisionError {
  switch (problem.kind) {
    case "tokens": {
      // TokenBudgetError's reason is `${what} needs N tokens, over the limit of M`.
      const what = problem.reason.replace(/ needs \d+ tokens, over the limit of \d+$/, "");
      return new TokenBudgetError(problem.path, problem.tokens ?? 0, problem.limit ?? 0, what);
    }
    case "reserved":
      return new ReservedTokenError(problem.path, problem.token ?? "");
    case "options":
      return new TooManyOptionsError(problem.path, problem.count ?? 0, problem.max ?? 0);
    case "invalid":
      return new InvalidDecisionError(problem.path, problem.reason);
  }
}
