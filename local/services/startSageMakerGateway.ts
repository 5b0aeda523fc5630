import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { PartStartError, PortInUseError } from "../errors.js";
import {
  endpointNotFound,
  errorTypeHeader,
  internalFailure,
  modelError,
  modelTimeoutError,
  type SageMakerErrorResponse,
  serviceUnavailable,
  throttlingException,
  validationError,
} from "./sageMakerErrors.js";

const PART = "the SageMaker gateway";
const HOST = "127.0.0.1";
const INVOCATIONS_PATH = /^\/endpoints\/([^/]+)\/invocations$/;
const CUSTOM_ATTRIBUTES = "x-amzn-sagemaker-custom-attributes";

/** Options of {@link startSageMakerGateway}. */
export interface StartSageMakerGatewayOptions {
  /** Port on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /** Endpoint name → the adapter's base URL (`http://127.0.0.1:8080`); `/invocations` is appended. */
  endpoints: Record<string, string>;
  /** Region named in error messages and log stream ARNs. Default `"us-east-1"`. */
  region?: string;
  /** Account id named in "endpoint not found" messages. Default `"000000000000"`. */
  accountId?: string;
  /** The production variant reported in `x-Amzn-Invoked-Production-Variant`. Default `"AllTraffic"`. */
  variantName?: string;
  /** How long the container may take to answer (SageMaker: 60 s). Default 60000 ms. */
  invocationTimeoutMs?: number;
  /** Largest request body (SageMaker real-time: 25 MB). Default 25 MiB. */
  maxBodyBytes?: number;
  /**
   * Invocations in flight per endpoint above which the gateway answers 429 ThrottlingException, as
   * SageMaker does when an endpoint is over its limits. Default: unbounded.
   */
  maxConcurrentInvocations?: number;
  /**
   * Told of every invocation whose call to the container failed before an answer came (answered
   * 503 ServiceUnavailable, or 424 ModelError when `timedOut`), with the error the call raised:
   * the SageMaker-shaped response cannot carry the cause. Called in a microtask after the response
   * is sent, so what it throws is an uncaught exception, never the invocation's answer. Default:
   * nobody is told.
   */
  onUpstreamFailure?: (failure: UpstreamFailure) => void;
}

/** An invocation whose call to the container failed before an answer (see `onUpstreamFailure`). */
export interface UpstreamFailure {
  /** The endpoint name invoked. */
  endpoint: string;
  /** What `fetch` raised; its `cause` chain holds the socket error (`ECONNREFUSED`, `UND_ERR_SOCKET`). */
  error: unknown;
  /** The container did not answer within `invocationTimeoutMs`. */
  timedOut: boolean;
}

/** A running gateway. */
export interface SageMakerGateway {
  /** `http://127.0.0.1:<port>`: the SDK's `endpoint` or `AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME`. */
  url: string;
  port: number;
  /** InvokeEndpoint requests received for this endpoint name (answered or failed), since start. */
  invocations(name: string): number;
  /** Adds an endpoint or points an existing one at another adapter (e.g. one restarted on a new port). */
  setEndpoint(name: string, adapterUrl: string): void;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a small SageMaker runtime gateway on 127.0.0.1 (no emulator of SageMaker runtime exists):
 * `POST /endpoints/{name}/invocations` is forwarded to the named adapter's `/invocations`, with the
 * request's Content-Type, Accept and custom attributes, and the answer comes back as InvokeEndpoint
 * returns it (Content-Type, `x-Amzn-Invoked-Production-Variant`, custom attributes). Errors are
 * mapped as SageMaker maps them, so the real `@aws-sdk/client-sagemaker-runtime` raises its own
 * classes: container non-2xx → 424 `ModelError` with `OriginalStatusCode` and `OriginalMessage`;
 * container too slow → 424 `ModelError` without a status; unknown endpoint → 400 `ValidationError`;
 * container unreachable → 503 `ServiceUnavailable`; over `maxConcurrentInvocations` → 429
 * `ThrottlingException`. The cause of the two failures without an answer goes to
 * `onUpstreamFailure`.
 *
 * @throws {PortInUseError} when the port is taken.
 * @example
 * const gateway = await startSageMakerGateway({ endpoints: { decisions: adapterUrl } });
 * const client = new SageMakerRuntimeClient({ endpoint: gateway.url, region: "us-east-1", credentials });
 */
export async function startSageMakerGateway(
  options: StartSageMakerGatewayOptions,
): Promise<SageMakerGateway> {
  const state: GatewayState = {
    settings: withDefaults(options),
    endpoints: new Map(Object.entries(options.endpoints)),
    counts: new Map(),
    inFlight: new Map(),
    calls: new Set(),
    onUpstreamFailure: options.onUpstreamFailure,
  };
  const server = createServer((request, response) => {
    void handleInvocation(state, request, response).catch((error: unknown) => {
      // The gateway itself failed (e.g. the client went away mid-body): SageMaker's InternalFailure.
      if (response.headersSent) response.destroy();
      else send(response, internalFailure(error));
    });
  });
  const port = await listen(server, options.port ?? 0);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopServer(server, state.calls);
    return stopping;
  };
  return {
    url: `http://${HOST}:${port}`,
    port,
    invocations: (name) => state.counts.get(name) ?? 0,
    setEndpoint: (name, adapterUrl) => {
      state.endpoints.set(name, adapterUrl);
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** {@link StartSageMakerGatewayOptions}' settings with their defaults applied. */
interface GatewaySettings {
  region: string;
  accountId: string;
  variantName: string;
  invocationTimeoutMs: number;
  maxBodyBytes: number;
  maxConcurrentInvocations: number;
}

/** What every request of one gateway shares. */
interface GatewayState {
  readonly settings: GatewaySettings;
  /** Endpoint name → the adapter's base URL. */
  readonly endpoints: Map<string, string>;
  /** InvokeEndpoint requests received per endpoint name (answered or failed), since start. */
  readonly counts: Map<string, number>;
  /** Invocations admitted and not yet answered, per endpoint name. */
  readonly inFlight: Map<string, number>;
  /** The calls to containers in flight, aborted by `stop()`. */
  readonly calls: Set<AbortController>;
  readonly onUpstreamFailure: ((failure: UpstreamFailure) => void) | undefined;
}

/** An invocation's step ended in an error response to send instead of going on. */
interface Refusal {
  refusal: SageMakerErrorResponse;
}

function withDefaults(options: StartSageMakerGatewayOptions): GatewaySettings {
  return {
    region: options.region ?? "us-east-1",
    accountId: options.accountId ?? "000000000000",
    variantName: options.variantName ?? "AllTraffic",
    invocationTimeoutMs: options.invocationTimeoutMs ?? 60_000,
    maxBodyBytes: options.maxBodyBytes ?? 25 * 1024 * 1024,
    maxConcurrentInvocations: options.maxConcurrentInvocations ?? Number.POSITIVE_INFINITY,
  };
}

/** One request: routed to an endpoint, admitted against its limit, forwarded to its adapter. */
async function handleInvocation(
  state: GatewayState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const target = routeInvocation(state, request);
  if ("refusal" in target) {
    request.resume();
    send(response, target.refusal);
    return;
  }
  const { name, adapterUrl } = target;
  state.counts.set(name, (state.counts.get(name) ?? 0) + 1);
  const admitted = await admitInvocation(state, name, request);
  if ("refusal" in admitted) {
    send(response, admitted.refusal);
    return;
  }
  // A caller that gives up (closes its connection) ends the container's call too: the adapter then
  // drops or aborts the work (SageMaker itself does not pass a caller's disconnect on; see
  // docs/security.md), instead of evaluating what nobody will read.
  const gone = new AbortController();
  const onClose = (): void => {
    if (!response.writableFinished) gone.abort(new CallerGoneError());
  };
  response.once("close", onClose);
  try {
    await forwardInvocation(
      state,
      { name, adapterUrl, headers: request.headers, body: admitted.body, gone: gone.signal },
      response,
    );
  } finally {
    response.off("close", onClose);
    state.inFlight.set(name, (state.inFlight.get(name) ?? 1) - 1);
  }
}

/**
 * The endpoint a request invokes: `POST /endpoints/{name}/invocations` with a known name, or the
 * error SageMaker answers (404 unknown operation, 400 bad percent-encoding or unknown endpoint).
 */
function routeInvocation(
  state: GatewayState,
  request: IncomingMessage,
): { name: string; adapterUrl: string } | Refusal {
  const match = INVOCATIONS_PATH.exec(new URL(request.url ?? "/", "http://gateway").pathname);
  if (request.method !== "POST" || match?.[1] === undefined) {
    return {
      refusal: { status: 404, type: "UnknownOperationException", body: { Message: "Unknown operation" } },
    };
  }
  let name: string;
  try {
    name = decodeURIComponent(match[1]);
  } catch {
    // A malformed percent-escape (`%E0%A4%A`) is the caller's mistake: 400, as SageMaker answers.
    return {
      refusal: validationError(`the endpoint name ${JSON.stringify(match[1])} is not valid percent-encoding`),
    };
  }
  const adapterUrl = state.endpoints.get(name);
  if (adapterUrl === undefined) return { refusal: endpointNotFound(name, state.settings.accountId) };
  return { name, adapterUrl };
}

/**
 * Admits an invocation of `name` against `maxConcurrentInvocations` (429 ThrottlingException
 * above it) and reads its body (400 ValidationError above `maxBodyBytes`). Once admitted, the
 * invocation counts as in flight until the caller takes it off.
 */
async function admitInvocation(
  state: GatewayState,
  name: string,
  request: IncomingMessage,
): Promise<{ body: Buffer } | Refusal> {
  const { inFlight, settings } = state;
  if ((inFlight.get(name) ?? 0) >= settings.maxConcurrentInvocations) {
    request.resume();
    return { refusal: throttlingException(name) };
  }
  // The body is read before the invocation counts against the limit: a client that sends its
  // body slowly (or stalls after a byte) must not hold a place other invocations need.
  const body = await readBody(request, settings.maxBodyBytes);
  if (body === undefined) {
    return { refusal: validationError(`Request body exceeds the ${settings.maxBodyBytes} bytes allowed.`) };
  }
  // Checked and taken with no await between, so two invocations cannot both take the last place.
  const running = inFlight.get(name) ?? 0;
  if (running >= settings.maxConcurrentInvocations) return { refusal: throttlingException(name) };
  inFlight.set(name, running + 1);
  return { body };
}

/** An admitted invocation on its way to the container. */
interface Invocation {
  name: string;
  adapterUrl: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** Aborts when the caller closes its connection before the answer is sent. */
  gone: AbortSignal;
}

/** The caller closed its connection before the gateway answered: its call to the container is aborted. */
class CallerGoneError extends Error {
  override name = "CallerGoneError";
  constructor() {
    super("the caller closed its connection before the answer; the call to the container was aborted");
  }
}

/**
 * Forwards an invocation to its adapter and answers as InvokeEndpoint: the container's 2xx answer
 * with SageMaker's headers, 424 ModelError for a non-2xx status or a timeout, 503
 * ServiceUnavailable when the container could not be reached (these two told to
 * `onUpstreamFailure`).
 */
async function forwardInvocation(
  state: GatewayState,
  invocation: Invocation,
  response: ServerResponse,
): Promise<void> {
  const { name } = invocation;
  const { region, variantName } = state.settings;
  const result = await callContainer(state, invocation);
  // Nobody is left to answer (nor to tell of an upstream failure the caller caused by leaving).
  if (invocation.gone.aborted) return;
  if ("error" in result) {
    const { error, timedOut } = result;
    send(response, timedOut ? modelTimeoutError(name, region) : serviceUnavailable(name));
    if (state.onUpstreamFailure !== undefined) {
      const tell = state.onUpstreamFailure;
      // Off the request's path: a failing observer must not turn an answer already sent into a 500.
      queueMicrotask(() => tell({ endpoint: name, error, timedOut }));
    }
    return;
  }
  const { answer, answerBody } = result;
  if (answer.status < 200 || answer.status > 299) {
    send(response, modelError(name, region, answer.status, answerBody.toString("utf8")));
    return;
  }
  const out: Record<string, string> = {
    "content-type": answer.headers.get("content-type") ?? "application/json",
    "x-Amzn-Invoked-Production-Variant": variantName,
    "x-amzn-RequestId": randomUUID(),
  };
  const attributes = answer.headers.get(CUSTOM_ATTRIBUTES);
  if (attributes !== null) out["X-Amzn-SageMaker-Custom-Attributes"] = attributes;
  response.writeHead(200, out);
  response.end(answerBody);
}

/**
 * POSTs the invocation to the adapter's `/invocations` with the request's Content-Type, Accept
 * and custom attributes, within `invocationTimeoutMs`: its answer and whole body, or what the
 * call raised and whether it was the timeout.
 */
async function callContainer(
  state: GatewayState,
  invocation: Invocation,
): Promise<{ answer: Response; answerBody: Buffer } | { error: unknown; timedOut: boolean }> {
  const headers: Record<string, string> = {};
  copyHeader(invocation.headers, headers, "content-type");
  copyHeader(invocation.headers, headers, "accept");
  copyHeader(invocation.headers, headers, CUSTOM_ATTRIBUTES);
  // One controller and one timer per call, both released when it ends: AbortSignal.timeout()
  // under AbortSignal.any() kept every call's signal and timer for the whole timeout (60 s), and
  // the gateway's RSS grew 78 → 298 MB in a 30 s storm of ~800 invocations/s.
  const call = new AbortController();
  const timer = setTimeout(
    () => call.abort(new DOMException("the invocation timed out", "TimeoutError")),
    state.settings.invocationTimeoutMs,
  );
  state.calls.add(call);
  const onGone = (): void => call.abort(invocation.gone.reason);
  if (invocation.gone.aborted) onGone();
  else invocation.gone.addEventListener("abort", onGone, { once: true });
  try {
    const answer = await fetch(new URL("invocations", withSlash(invocation.adapterUrl)), {
      method: "POST",
      headers,
      body: invocation.body,
      signal: call.signal,
    });
    return { answer, answerBody: Buffer.from(await answer.arrayBuffer()) };
  } catch (error) {
    return { error, timedOut: isTimeout(error) };
  } finally {
    clearTimeout(timer);
    invocation.gone.removeEventListener("abort", onGone);
    state.calls.delete(call);
  }
}

/**
 * Listens on 127.0.0.1:`port` and gives the port listened on.
 * @throws {PortInUseError} when the port is taken; {@link PartStartError} for any other failure.
 */
async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new PortInUseError(PART, HOST, port, { cause: error })
          : new PartStartError(PART, `could not listen on ${HOST}:${port}`, "", { cause: error }),
      );
    });
    server.listen(port, HOST, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new PartStartError(PART, "listens on no TCP port");
  return address.port;
}

/** Aborts the calls to containers in flight, closes every connection and the server. */
function stopServer(server: Server, calls: Set<AbortController>): Promise<void> {
  return new Promise<void>((resolve) => {
    for (const call of calls) call.abort();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function send(response: ServerResponse, error: SageMakerErrorResponse): void {
  const body = JSON.stringify(error.body);
  response.writeHead(error.status, {
    "content-type": "application/json",
    "x-amzn-ErrorType": errorTypeHeader(error.type),
    "x-amzn-RequestId": randomUUID(),
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}

/** The whole body, or undefined when it exceeds `limit` bytes (the rest is discarded). */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  }
  return tooLarge ? undefined : Buffer.concat(chunks);
}

function copyHeader(from: IncomingMessage["headers"], to: Record<string, string>, name: string): void {
  const value = from[name];
  if (typeof value === "string") to[name] = value;
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === "TimeoutError";
}
