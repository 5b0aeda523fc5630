/**
 * Errors of the HTTP adapter. Each {@link HttpError} carries the status and body it is answered
 * with; the server decides the response by class, never by message text. {@link ServerConfigError} and
 * {@link ModelDiscoveryError} stop the process before it serves.
 */
import type { Lane } from "../../contract/lanes/lanes.js";
import type { Problem } from "./types.js";

/** An error answered with a JSON body `{error, problems?, retryable}` and the given status. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    /** HTTP status code. */
    readonly status: number,
    message: string,
    /** Whether the same request may succeed when sent again later. */
    readonly retryable: boolean,
    /** Each problem found, naming its field; empty when the message says it all. */
    readonly problems: readonly Problem[] = [],
    /** Extra response headers (e.g. `Retry-After`). */
    readonly headers: Readonly<Record<string, string>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The JSON body of the response. */
  toBody(): { error: string; problems?: Problem[]; retryable: boolean } {
    return this.problems.length > 0
      ? { error: this.message, problems: [...this.problems], retryable: this.retryable }
      : { error: this.message, retryable: this.retryable };
  }
}

/** 400: the body is not valid JSON, or not a valid request; every problem is listed. */
export class BadRequestError extends HttpError {
  override name = "BadRequestError";
  constructor(message: string, problems: readonly Problem[] = [], options?: ErrorOptions) {
    super(400, message, false, problems, {}, options);
  }

  /** A 400 summarising `problems` ("3 problems in the request: …"). */
  static fromProblems(problems: readonly Problem[]): BadRequestError {
    const first = problems[0];
    const summary =
      first === undefined
        ? "invalid request"
        : problems.length === 1
          ? `invalid request: ${first.field}: ${first.message}`
          : `invalid request: ${problems.length} problems, the first: ${first.field}: ${first.message}`;
    return new BadRequestError(summary, problems);
  }
}

/** 404: no such path. */
export class NotFoundError extends HttpError {
  override name = "NotFoundError";
  constructor(path: string) {
    super(404, `no such path: ${path}`, false);
  }
}

/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends HttpError {
  override name = "MethodNotAllowedError";
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(405, `${method} is not allowed on ${path}; use ${allowed.join(" or ")}`, false, [], {
      Allow: allowed.join(", "),
    });
  }
}

/** 413: the body is larger than the configured limit. */
export class PayloadTooLargeError extends HttpError {
  override name = "PayloadTooLargeError";
  constructor(readonly limitBytes: number) {
    super(413, `the request body exceeds the limit of ${limitBytes} bytes`, false, [
      { field: "body", message: `larger than ${limitBytes} bytes` },
    ]);
  }
}

/** 415: the body is not declared as `application/json`. */
export class UnsupportedMediaTypeError extends HttpError {
  override name = "UnsupportedMediaTypeError";
  constructor(contentType: string | undefined) {
    super(
      415,
      `Content-Type must be application/json, got ${contentType === undefined ? "none" : JSON.stringify(contentType)}`,
      false,
      [{ field: "Content-Type", message: "must be application/json" }],
    );
  }
}

/**
 * 503, retryable: admission is full (or the server is loading or stopping). The `Retry-After`
 * header is set, and the body carries the same seconds as `retry_after_seconds`: behind SageMaker
 * the caller sees the container's body (a `ModelError`'s `OriginalMessage`) but not its headers,
 * and the decide function's flow control reads the pause from there.
 */
export class ServiceUnavailableError extends HttpError {
  override name = "ServiceUnavailableError";
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, options?: ErrorOptions) {
    super(503, message, true, [], { "Retry-After": String(retryAfterSeconds) }, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The JSON body: `{error, retryable: true, retry_after_seconds}` (the header's value). */
  override toBody(): { error: string; retryable: boolean; retry_after_seconds: number } {
    return { ...super.toBody(), retry_after_seconds: this.retryAfterSeconds };
  }
}

/** 504, retryable: the request's deadline passed before the engine answered. */
export class RequestDeadlineError extends HttpError {
  override name = "RequestDeadlineError";
  constructor(deadlineMs: number, options?: ErrorOptions) {
    super(504, `the request did not finish within its deadline of ${deadlineMs} ms`, true, [], {}, options);
  }
}

/**
 * 408, retryable: the body did not arrive within the body deadline (`bodyTimeoutSeconds`); the
 * connection is closed, since the rest of the body may still come.
 */
export class BodyTimeoutError extends HttpError {
  override name = "BodyTimeoutError";
  constructor(seconds: number, options?: ErrorOptions) {
    super(
      408,
      `the request's body did not arrive within ${seconds} s; send it at once, or retry`,
      true,
      [],
      { Connection: "close" },
      options,
    );
  }
}

/**
 * 408, retryable: the body arrived slower than the least pace (`BODY_PACE`: bytes per second after
 * a grace period); the connection is closed, since the rest of the body may still come.
 */
export class BodyTooSlowError extends HttpError {
  override name = "BodyTooSlowError";
  constructor(minBytesPerSecond: number, options?: ErrorOptions) {
    super(
      408,
      `the request's body arrived slower than ${minBytesPerSecond} bytes per second; send it at once, or retry`,
      true,
      [],
      { Connection: "close" },
      options,
    );
  }
}

/** 500: an unexpected failure; the body says nothing more, the log has the details. */
export class InternalServerError extends HttpError {
  override name = "InternalServerError";
  constructor(options?: ErrorOptions) {
    super(500, "internal error while answering the request", false, [], {}, options);
  }
}

/** The configuration (environment or command-line flags) is invalid; each bad setting is named. */
export class ServerConfigError extends Error {
  override name = "ServerConfigError";
  constructor(
    /** One line per bad setting, each starting with the variable or flag name. */
    readonly problems: readonly string[],
  ) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

/** No single model file could be chosen (none, several, or the explicit path is missing). */
export class ModelDiscoveryError extends Error {
  override name = "ModelDiscoveryError";
}

/** The server could not become ready: the model failed to load, verify or answer the probe. */
export class StartupError extends Error {
  override name = "StartupError";
}

/** The client closed the connection before the answer was ready; nothing is sent (logged as 499). */
export class ClientDisconnectedError extends Error {
  override name = "ClientDisconnectedError";
  constructor(options?: ErrorOptions) {
    super("the client closed the connection before the answer was ready", options);
  }
}

/**
 * A request's lane has no room left to wait for its turn to be prepared (see `PreAdmission`): the
 * server answers it with its lane's 503. Carries the lane; not an HTTP error itself.
 */
export class PreAdmissionFullError extends Error {
  override name = "PreAdmissionFullError";
  constructor(readonly lane: Lane) {
    super(`the ${lane} lane has as many requests waiting to be prepared as it may; retry the request`);
  }
}
