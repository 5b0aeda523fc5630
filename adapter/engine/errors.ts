/**
 * Errors of the decision engine. Callers decide behaviour by class: {@link InvalidDecisionError}
 * and its subclasses are the caller's fault (HTTP 4xx, never retried); {@link AbortedError} is
 * transient; the rest are failures of the engine or its model.
 */

/** Base class of every error the engine throws on purpose. */
export class DecisionEngineError extends Error {
  override name = "DecisionEngineError";
}

/** One step of a field path in the engine's terms: an object key or an array index. */
export type EnginePathSegment = string | number;

/**
 * The request cannot be scored as given. `path` names the offending part in the engine's terms
 * (`["questions", 1, "options"]`, `["state"]`), `reason` says what is wrong with it; a caller
 * translates the path into its own wire format and never parses the message.
 */
export class InvalidDecisionError extends DecisionEngineError {
  override name = "InvalidDecisionError";
  /** Where the problem is, e.g. `["questions", 1, "options", 0, "id"]`. */
  readonly path: readonly EnginePathSegment[];
  /** What is wrong there, written for the caller, e.g. `duplicate id "billing"`. */
  readonly reason: string;
  constructor(path: readonly EnginePathSegment[], reason: string, options?: ErrorOptions) {
    super(`${formatEnginePath(path)}: ${reason}`, options);
    this.path = [...path];
    this.reason = reason;
  }
}

/**
 * Several problems found in one check of a request, every one reported at once. `path` and
 * `reason` are the first problem's.
 */
export class InvalidBatchError extends InvalidDecisionError {
  override name = "InvalidBatchError";
  /** Each problem, in request order. */
  readonly problems: readonly InvalidDecisionError[];
  constructor(problems: readonly InvalidDecisionError[]) {
    const [first] = problems;
    if (first === undefined) throw new RangeError("an InvalidBatchError needs at least one problem");
    super(first.path, first.reason);
    this.problems = [...problems];
    this.message = `${problems.length} problems, the first: ${first.message}`;
  }
}

/** A question offers more options than the model's verified label alphabet holds. */
export class TooManyOptionsError extends InvalidDecisionError {
  override name = "TooManyOptionsError";
  constructor(
    path: readonly EnginePathSegment[],
    readonly count: number,
    readonly max: number,
  ) {
    super(
      path,
      `${count} options offered, but this model can offer at most ${max} (its verified label alphabet)`,
    );
  }
}

/** A prompt (or a whole request) needs more tokens than allowed. */
export class TokenBudgetError extends InvalidDecisionError {
  override name = "TokenBudgetError";
  constructor(
    path: readonly EnginePathSegment[],
    readonly tokens: number,
    readonly limit: number,
    what: string,
  ) {
    super(path, `${what} needs ${tokens} tokens, over the limit of ${limit}`);
  }
}

/** Caller-supplied text contains a chat-control token that could forge prompt structure. */
export class ReservedTokenError extends InvalidDecisionError {
  override name = "ReservedTokenError";
  constructor(
    path: readonly EnginePathSegment[],
    readonly token: string,
  ) {
    super(path, `contains the reserved chat-control text ${JSON.stringify(token)}`);
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

/**
 * llama.cpp did not return what the engine asked of it (e.g. no next-token distribution): a failure
 * of the engine, not of the request.
 */
export class EngineFailureError extends DecisionEngineError {
  override name = "EngineFailureError";
}

/** `questions[1].options` — a path as messages show it. */
function formatEnginePath(path: readonly EnginePathSegment[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text === "" ? "request" : text;
}
