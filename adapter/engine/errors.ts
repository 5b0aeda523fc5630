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

/**
 * A llama.cpp build was made but failed its smoke test (load a generated model, evaluate one prompt
 * in a child process): it must not be offered or used. `build` names it with its flags, `output`
 * keeps the end of what the child printed.
 */
export class LlamaBuildCheckError extends ModelLoadError {
  override name = "LlamaBuildCheckError";
  /** The build, with its compile options: `native llama.cpp build (GGML_NATIVE=ON …)`. */
  readonly build: string;
  /** The last lines the smoke test printed. */
  readonly output: string;
  constructor(build: string, message: string, output: string, options?: ErrorOptions) {
    super(output === "" ? message : `${message}\n--- its last output ---\n${output.trimEnd()}`, options);
    this.build = build;
    this.output = output;
  }
}

/** What {@link LlamaBuildCrashError} tells. */
export interface LlamaBuildCrash {
  /** What was killed, as the message's subject: `the smoke test`, `llama-server`. */
  subject: string;
  /** The build, with its compile options. */
  build: string;
  signal: NodeJS.Signals;
  /** When it died: `while loading … and evaluating one prompt`, `before it was ready`. */
  doing: string;
  /** The CPU, as `describeCpuFeatures` names it. */
  cpu: string;
  /** What to do instead. */
  fix: string;
  /** The last lines it printed. */
  output: string;
}

/**
 * A llama.cpp build was killed by a signal (a segmentation fault, an illegal instruction) in its
 * smoke test or while serving: the build crashes on this CPU. The message names the build, the CPU's features and
 * the fix; the fields carry them for a caller.
 */
export class LlamaBuildCrashError extends LlamaBuildCheckError {
  override name = "LlamaBuildCrashError";
  /** The signal that killed it (`SIGSEGV`, `SIGILL`, …). */
  readonly signal: NodeJS.Signals;
  /** The CPU, as `describeCpuFeatures` names it. */
  readonly cpu: string;
  /** What to do instead, for the person reading the error. */
  readonly fix: string;
  constructor(details: LlamaBuildCrash, options?: ErrorOptions) {
    super(
      details.build,
      `${details.subject} was killed by ${details.signal} (${signalMeaning(details.signal)}) ${details.doing}. ` +
        `Build: ${details.build}. CPU: ${details.cpu}. ${details.fix}`,
      details.output,
      options,
    );
    this.signal = details.signal;
    this.cpu = details.cpu;
    this.fix = details.fix;
  }
}

/** What a signal that kills a process usually means, in words. */
export function signalMeaning(signal: NodeJS.Signals): string {
  switch (signal) {
    case "SIGSEGV":
      return "segmentation fault: an invalid memory access or a general protection fault";
    case "SIGILL":
      return "illegal instruction: code for an instruction this CPU does not run";
    case "SIGBUS":
      return "bus error";
    case "SIGFPE":
      return "arithmetic fault";
    case "SIGABRT":
      return "aborted by the program itself";
    case "SIGKILL":
      return "killed outright, e.g. by the out-of-memory killer";
    default:
      return "terminated by a signal";
  }
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

/** The prompt worker's thread failed, exited or could not load the vocabulary. */
export class PromptWorkerError extends DecisionEngineError {
  override name = "PromptWorkerError";
}
