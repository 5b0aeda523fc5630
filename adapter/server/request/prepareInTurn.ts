import type { DecisionEngine } from "../../engine/types.js";
import { MAX_JSON_DEPTH } from "../constants.js";
import { PreAdmissionFullError, RequestDeadlineError, ServiceUnavailableError } from "../errors.js";
import type { PreAdmissionPlace } from "../PreAdmission.js";
import { type PreparedInvocation, prepareInvocation } from "../prepareInvocation.js";
import { parseBodyText } from "../readJsonBody.js";
import type { InvocationKind, RequestLimits } from "../types.js";

/** What {@link prepareInTurn} needs besides the body. */
export interface PrepareInTurnOptions {
  /** What the route accepts: one invocation kind, or `auto` (told apart by shape). */
  accepts: InvocationKind | "auto";
  /** The request limits in force. */
  limits: RequestLimits;
  engine: DecisionEngine;
  /** Bytes of saved state a prompt token may bring (the prompt's bound is this × `maxPromptTokens`). */
  maxStateBytesPerToken: number;
  /** The request's deadline, in ms (said in the 503 when it passes before the turn comes). */
  requestTimeoutMs: number;
  /** `Retry-After` of the 503s. */
  retryAfterSeconds: number;
  /** The 503 for a lane whose waiting room is full. */
  atCapacity: () => ServiceUnavailableError;
  /** Called before a 503 is thrown (a refusal, not a failure). */
  onRefused: () => void;
  /** The request's own signal (its deadline, its client's disconnection). */
  signal: AbortSignal;
}

/**
 * Parses and prepares a body in its lane's turn ({@link PreAdmissionPlace.prepare}): parsing,
 * rendering and tokenizing wait for their turn, interactive first, and a request whose client has
 * gone meanwhile is dropped. A lane whose waiting room is full, or a deadline that passes while the
 * request waits for its turn, is a busy answer (503 with `Retry-After`, a refusal): nothing was
 * evaluated.
 * @throws ServiceUnavailableError as above; what parsing and `prepareInvocation` throw.
 */
export async function prepareInTurn(
  place: PreAdmissionPlace,
  text: string,
  options: PrepareInTurnOptions,
): Promise<PreparedInvocation> {
  const { limits, signal } = options;
  const maxStateBytes = limits.maxPromptTokens * options.maxStateBytesPerToken;
  let started = false;
  try {
    return await place.prepare(() => {
      started = true;
      return prepareInvocation(
        parseBodyText(text, MAX_JSON_DEPTH),
        options.accepts,
        limits,
        options.engine,
        { maxStateBytes },
        signal,
      );
    }, signal);
  } catch (error) {
    if (error instanceof PreAdmissionFullError) {
      options.onRefused();
      throw options.atCapacity();
    }
    if (!started && error === signal.reason && signal.reason instanceof RequestDeadlineError) {
      options.onRefused();
      throw new ServiceUnavailableError(
        `the request waited ${options.requestTimeoutMs} ms for its turn to be prepared (the server is busy); retry the request`,
        options.retryAfterSeconds,
        { cause: error },
      );
    }
    throw error;
  }
}
