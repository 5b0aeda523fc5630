import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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
  const settings = {
    region: options.region ?? "us-east-1",
    accountId: options.accountId ?? "000000000000",
    variantName: options.variantName ?? "AllTraffic",
    invocationTimeoutMs: options.invocationTimeoutMs ?? 60_000,
    maxBodyBytes: options.maxBodyBytes ?? 25 * 1024 * 1024,
    maxConcurrentInvocations: options.maxConcurrentInvocations ?? Number.POSITIVE_INFINITY,
  };
  const endpoints = new Map(Object.entries(options.endpoints));
  const counts = new Map<string, number>();
  const inFlight = new Map<string, number>();
  /** The calls to containers in flight, aborted by `stop()`. */
  const calls = new Set<AbortController>();

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      // The gateway itself failed (e.g. the client went away mid-body): SageMaker's InternalFailure.
      if (response.headersSent) response.destroy();
      else send(response, internalFailure(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const match = INVOCATIONS_PATH.exec(new URL(request.url ?? "/", "http://gateway").pathname);
    if (request.method !== "POST" || match?.[1] === undefined) {
      request.resume();
      send(response, {
        status: 404,
        type: "UnknownOperationException",
        body: { Message: "Unknown operation" },
      });
      return;
    }
    let name: string;
    try {
      name = decodeURIComponent(match[1]);
    } catch {
      // A malformed percent-escape (`%E0%A4%A`) is the caller's mistake: 400, as SageMaker answers.
      request.resume();
      send(
        response,
        validationError(`the endpoint name ${JSON.stringify(match[1])} is not valid percent-encoding`),
      );
      return;
    }
    const adapterUrl = endpoints.get(name);
    if (adapterUrl === undefined) {
      request.resume();
      send(response, endpointNotFound(name, settings.accountId));
      return;
    }
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if ((inFlight.get(name) ?? 0) >= settings.maxConcurrentInvocations) {
      request.resume();
      send(response, throttlingException(name));
      return;
    }
    // The body is read before the invocation counts against the limit: a client that sends its
    // body slowly (or stalls after a byte) must not hold a place other invocations need.
    const body = await readBody(request, settings.maxBodyBytes);
    if (body === undefined) {
      send(response, validationError(`Request body exceeds the ${settings.maxBodyBytes} bytes allowed.`));
      return;
    }
    const running = inFlight.get(name) ?? 0;
    if (running >= settings.maxConcurrentInvocations) {
      send(response, throttlingException(name));
      return;
    }
    inFlight.set(name, running + 1);
    try {
      await forward(name, adapterUrl, request, body, response);
    } finally {
      inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
    }
  }

  async function forward(
    name: string,
    adapterUrl: string,
    request: IncomingMessage,
    body: Buffer,
    response: ServerResponse,
  ): Promise<void> {
    const headers: Record<string, string> = {};
    copyHeader(request.headers, headers, "content-type");
    copyHeader(request.headers, headers, "accept");
    copyHeader(request.headers, headers, CUSTOM_ATTRIBUTES);
    // One controller and one timer per call, both released when it ends: AbortSignal.timeout()
    // under AbortSignal.any() kept every call's signal and timer for the whole timeout (60 s), and
    // the gateway's RSS grew 78 → 298 MB in a 30 s storm of ~800 invocations/s.
    const call = new AbortController();
    const timer = setTimeout(
      () => call.abort(new DOMException("the invocation timed out", "TimeoutError")),
      settings.invocationTimeoutMs,
    );
    calls.add(call);
    let answer: Response;
    let answerBody: Buffer;
    try {
      answer = await fetch(new URL("invocations", withSlash(adapterUrl)), {
        method: "POST",
        headers,
        body,
        signal: call.signal,
      });
      answerBody = Buffer.from(await answer.arrayBuffer());
    } catch (error) {
      const timedOut = isTimeout(error);
      send(response, timedOut ? modelTimeoutError(name, settings.region) : serviceUnavailable(name));
      if (options.onUpstreamFailure !== undefined) {
        const tell = options.onUpstreamFailure;
        // Off the request's path: a failing observer must not turn an answer already sent into a 500.
        queueMicrotask(() => tell({ endpoint: name, error, timedOut }));
      }
      return;
    } finally {
      clearTimeout(timer);
      calls.delete(call);
    }
    if (answer.status < 200 || answer.status > 299) {
      send(response, modelError(name, settings.region, answer.status, answerBody.toString("utf8")));
      return;
    }
    const out: Record<string, string> = {
      "content-type": answer.headers.get("content-type") ?? "application/json",
      "x-Amzn-Invoked-Production-Variant": settings.variantName,
      "x-amzn-RequestId": randomUUID(),
    };
    const attributes = answer.headers.get(CUSTOM_ATTRIBUTES);
    if (attributes !== null) out["X-Amzn-SageMaker-Custom-Attributes"] = attributes;
    response.writeHead(200, out);
    response.end(answerBody);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const port = options.port ?? 0;
      reject(
        error.code === "EADDRINUSE"
          ? new PortInUseError(PART, HOST, port, { cause: error })
          : new PartStartError(PART, `could not listen on ${HOST}:${port}`, "", { cause: error }),
      );
    });
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new PartStartError(PART, "listens on no TCP port");

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= new Promise<void>((resolve) => {
      for (const call of calls) call.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return stopping;
  };
  return {
    url: `http://${HOST}:${address.port}`,
    port: address.port,
    invocations: (name) => counts.get(name) ?? 0,
    setEndpoint: (name, adapterUrl) => {
      endpoints.set(name, adapterUrl);
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
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
