/**
 * Errors of the decision engine. Callers decide behaviour by class: {@link InvalidDecisionError}
 * and its subclasses are the caller's fault (HTTP 4xx, never retried); {@link AbortedError} is
 * transient; the rest are failures of the engine or its model.
 */

/** Base class of every error the engine throws on purpose. */
export class DecisionEngineError extends Error {
  override name = "DecisionEngineError";
}

/** The request cannot be scored as given. `field` names the offending part, e.g. `questions[1].options`. */
export class InvalidDecisionError extends DecisionEngineError {
  override name = "InvalidDecisionError";
  constructor(
    readonly field: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${field}: ${message}`, options);
  }
}

/** A question offers more options than the model's verified label alphabet holds. */
export class TooManyOptionsError extends InvalidDecisionError {
  override name = "TooManyOptionsError";
  constructor(
    field: string,
    readonly count: number,
    readonly max: number,
  ) {
    super(
      field,
      `${count} options offered, but this model can offer at most ${max} (its verified label alphabet)`,
    );
  }
}

/** A prompt (or a whole request) needs more tokens than allowed. */
export class TokenBudgetError extends InvalidDecisionError {
  override name = "TokenBudgetError";
  constructor(
    field: string,
    readonly tokens: number,
    readonly limit: number,
    what: string,
  ) {
    super(field, `${what} needs ${tokens} tokens, over the limit of ${limit}`);
  }
}

/** Caller-supplied text contains a chat-control token that could forge prompt structure. */
export class ReservedTokenError extends InvalidDecisionError {
  override name = "ReservedTokenError";
  constructor(
    field: string,
    readonly token: string,
  ) {
    super(field, `contains the reserved chat-control text ${JSON.stringify(token)}`);
  }
}

/** The call was cancelled through its AbortSignal before it finished. */
export class AbortedError extends DecisionEngineError {
  override name = "AbortedError";
  constructor(message = "the scoring call was aborted", options?: ErrorOptions) {
    super(message, options);
  }
}

/** The engine was disposed; no further calls are possible. */
export class EngineDisposedError extends DecisionEngineError {
  override name = "EngineDisposedError";
  constructor() {
    super("the decision engine has been disposed");
  }
}

/** The model could not be loaded or is unusable for decisions (e.g. no verifiable label alphabet). */
export class ModelLoadError extends DecisionEngineError {
  override name = "ModelLoadError";
}

/** GPU offload was requested but no GPU backend could be loaded: refuse rather than run on CPU silently. */
export class GpuUnavailableError extends ModelLoadError {
  override name = "GpuUnavailableError";
}
