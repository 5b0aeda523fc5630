import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_REQUEST_LANE, LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { DecisionEngine } from "../engine/types.js";
import { AdmissionGate, type AdmissionTicket, type LaneAdmission } from "./AdmissionGate.js";
import { adapterBuildOf } from "./adapterBuildOf.js";
import { answerInvocation } from "./answerInvocation.js";
import { BodyReadBudget } from "./BodyReadBudget.js";
import type { ServerConfig } from "./config.js";
import {
  BODY_PACE,
  CONNECTIONS_CHECKING_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS,
  MAX_CONNECTIONS_PER_ADDRESS,
  ROUTES,
} from "./constants.js";
import {
  ClientDisconnectedError,
  type HttpError,
  MethodNotAllowedError,
  NotFoundError,
  RequestDeadlineError,
  ServiceUnavailableError,
  StartupError,
} from "./errors.js";
import { laneOfRequest } from "./laneOfRequest.js";
import { type ConnectionLimits, limitConnections } from "./limitConnections.js";
import { limitsInForce } from "./limitsInForce.js";
import type { Logger } from "./logger.js";
import { mapEngineError } from "./mapEngineError.js";
import { type LanePreAdmission, PreAdmission, type PreAdmissionPlace } from "./PreAdmission.js";
import type { PreparedInvocation } from "./prepareInvocation.js";
import { probeEngine } from "./probeEngine.js";
import { RefusalLog } from "./RefusalLog.js";
import { declaredLength } from "./readJsonBody.js";
import { atCapacityError } from "./request/atCapacityError.js";
import { logRequest, type RequestRecord } from "./request/logRequest.js";
import { prepareInTurn } from "./request/prepareInTurn.js";
import { readBodyInTime } from "./request/readBodyInTime.js";
import { sendJson } from "./request/sendJson.js";
import { startInTime } from "./request/startInTime.js";
import type { InvocationKind, RequestLimits } from "./types.js";
import type { BodyPace } from "./watchBodyPace.js";

/** The settings {@link DecisionServer} uses (a {@link ServerConfig} has them all). */
export type DecisionServerSettings = Pick<
  ServerConfig,
  | "host"
  | "port"
  | "maxBodyBytes"
  | "maxOptions"
  | "maxQuestions"
  | "maxPromptTokens"
  | "maxRequestTokens"
  | "maxCompletionTokens"
  | "maxInFlight"
  | "queueDepth"
  | "interactiveReserve"
  | "retryAfterSeconds"
  | "requestTimeoutMs"
  | "bodyTimeoutSeconds"
  | "maxBodyReads"
  | "maxStateBytesPerToken"
  | "hideCacheDetails"
  | "shutdownTimeoutMs"
>;

/** Options of {@link DecisionServer}. */
export interface DecisionServerOptions {
  settings: DecisionServerSettings;
  /**
   * Loads the engine (model discovery, manifest check, model load). Called by {@link DecisionServer.load}
   * after the server listens, so `/ping` answers 503 meanwhile. The signal aborts when the server
   * stops during loading.
   */
  loadEngine: (signal: AbortSignal) => Promise<DecisionEngine>;
  /** Structured log lines go here: `ready`, one `request` line per request, failures. */
  logger: Logger;
  /** Extra fields of the `ready` log line (e.g. the model path, threads, GPU layers). */
  readyFields?: Record<string, unknown>;
  /** The slowest a request body may arrive before it is cut with 408. Default {@link BODY_PACE}. */
  bodyPace?: BodyPace;
  /**
   * Bounds on open connections, in all and per remote address, and on the time to send headers.
   * Default {@link MAX_CONNECTIONS}, {@link MAX_CONNECTIONS_PER_ADDRESS}, {@link HEADERS_TIMEOUT_MS}.
   */
  connectionLimits?: ConnectionLimits;
}

/** One lane's evaluations since start (see {@link DecisionServer.evaluations}). */
export interface LaneEvaluations {
  /** Requests of the lane handed to the engine to be evaluated. */
  started: number;
  /** Of those, evaluations aborted because their client went away before the answer. */
  abandoned: number;
}

/** Lifecycle of a {@link DecisionServer}. */
export type DecisionServerState =
  | "idle"
  | "listening"
  | "loading"
  | "ready"
  | "failed"
  | "stopping"
  | "stopped";

interface Route {
  methods: readonly string[];
  accepts: InvocationKind | "auto" | "ping";
}

const ROUTE_TABLE = new Map<string, Route>([
  [ROUTES.ping, { methods: ["GET", "HEAD"], accepts: "ping" }],
  [ROUTES.invocations, { methods: ["POST"], accepts: "auto" }],
  [ROUTES.systemOne, { methods: ["POST"], accepts: "systemone" }],
  [ROUTES.chatCompletions, { methods: ["POST"], accepts: "chat" }],
]);

/**
 * The SageMaker real-time inference container on node:http: `GET /ping` (200 once the model is
 * loaded and a probe decision succeeded, 503 before), `POST /invocations` (SemIf, System One or
 * OpenAI chat, told apart by shape), `POST /v1/systemone` and `POST /v1/chat/completions`.
 *
 * Admission is bounded (`maxInFlight` running + `queueDepth` waiting; beyond that 503 with
 * `Retry-After`, decided before the body is read) and served by lane: a request names its lane in
 * `X-Amzn-SageMaker-Custom-Attributes` (`lane=bulk`; `interactive` when it names none), a `bulk`
 * request may not take the last `interactiveReserve` places, and a freed running slot goes to a
 * waiting `interactive` request before any waiting `bulk` one (see {@link AdmissionGate}). Before
 * the gate, a lane's work is bounded and served by lane too ({@link PreAdmission}): a `bulk` request
 * is read and prepared only while the gate would still have a bulk place for it counting the bulk
 * requests already being read or prepared (else 503 at once), bodies are parsed and tokenized one at
 * a time with waiting `interactive` ones first, a `bulk` one not while an interactive request is
 * being prepared or is admitted (bulk preparations run between interactive calls, with aging), and
 * one whose client has gone is dropped from the queue unparsed. A body is read before its request is admitted,
 * charged by the bytes it holds to a budget of `maxBodyReads` × `maxBodyBytes` (so a stalled
 * sender holds a byte, not a slot), and cut with 408 when it arrives slower than `bodyPace` or
 * later than `bodyTimeoutSeconds`; headers have their own deadline, and connections are bounded
 * in all and per remote address. Each request has a deadline
 * (`requestTimeoutMs`, 504 when passed) and is aborted when its client disconnects. Bad input
 * gets a 4xx naming every problem; engine failures are mapped by class; nothing a client sends
 * causes a 5xx or a crash.
 *
 * @example
 * const server = new DecisionServer({ settings: readServerConfig(process.env), loadEngine, logger });
 * await server.listen();
 * await server.load(); // /ping → 200 from here on
 * // …
 * await server.close(); // stop accepting, finish in-flight requests, dispose the engine
 */
export class DecisionServer implements AsyncDisposable {
  readonly #settings: DecisionServerSettings;
  readonly #loadEngine: DecisionServerOptions["loadEngine"];
  readonly #logger: Logger;
  readonly #readyFields: Record<string, unknown>;
  /** Refusals counted per lane, so each lane's burst is written on its own lines. */
  readonly #refusals: Record<Lane, RefusalLog>;
  readonly #gate: AdmissionGate;
  /** Each lane's requests between arrival and admission: their places, and the turns of their preparation. */
  readonly #preAdmission: PreAdmission;
  readonly #evaluations: Record<Lane, LaneEvaluations> = {
    interactive: { started: 0, abandoned: 0 },
    bulk: { started: 0, abandoned: 0 },
  };
  /** Bytes held by bodies being read or prepared (at most `maxBodyReads` × `maxBodyBytes`). */
  readonly #bodies: BodyReadBudget;
  readonly #bodyPace: BodyPace;
  readonly #http: Server;
  readonly #loadController = new AbortController();
  readonly #inFlight = new Set<AbortController>();
  #state: DecisionServerState = "idle";
  #engine: DecisionEngine | undefined;
  /** The adapter build answers name, known once the engine is loaded. */
  #adapterBuild: string | undefined;
  #limits: RequestLimits | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: DecisionServerOptions) {
    this.#settings = options.settings;
    this.#loadEngine = options.loadEngine;
    this.#logger = options.logger;
    this.#readyFields = options.readyFields ?? {};
    this.#refusals = Object.fromEntries(
      LANES.map((lane) => [lane, new RefusalLog(options.logger, { lane })]),
    ) as Record<Lane, RefusalLog>;
    this.#gate = new AdmissionGate({
      maxInFlight: options.settings.maxInFlight,
      queueDepth: options.settings.queueDepth,
      interactiveReserve: options.settings.interactiveReserve,
      // An interactive call answered: bulk preparations held back while it was admitted may go on.
      onLeave: (lane) => {
        if (lane === "interactive") this.#preAdmission.recheck();
      },
    });
    const gate = this.#gate;
    this.#preAdmission = new PreAdmission({
      // A bulk request is read and prepared only while the gate would still admit it, counting the
      // bulk requests ahead of it on the way there; interactive ones are bounded by the body budget.
      limitOf: (lane) =>
        lane === "bulk" ? Math.max(0, gate.capacityOf("bulk") - gate.admitted) : Number.POSITIVE_INFINITY,
      // More interactive requests waiting to be prepared than the gate holds could not all be admitted.
      maxWaiting: (lane) => (lane === "interactive" ? gate.capacity : Number.POSITIVE_INFINITY),
      // Bulk bodies are parsed and tokenized between interactive calls, never beside their evaluation.
      interactiveAdmitted: () => gate.admittedOf("interactive") > 0,
    });
    this.#bodies = new BodyReadBudget({
      maxBytes: options.settings.maxBodyReads * options.settings.maxBodyBytes,
    });
    this.#bodyPace = options.bodyPace ?? BODY_PACE;
    this.#http = createServer(
      {
        // A request may legitimately take the whole deadline; never let Node cut it shorter.
        requestTimeout: Math.max(300_000, this.#settings.requestTimeoutMs + 5_000),
        connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      },
      (request, response) => {
        void this.#handle(request, response);
      },
    );
    limitConnections(
      this.#http,
      options.connectionLimits ?? {
        maxConnections: MAX_CONNECTIONS,
        maxConnectionsPerAddress: MAX_CONNECTIONS_PER_ADDRESS,
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
      },
    );
  }

  /** Where the server is in its lifecycle. */
  get state(): DecisionServerState {
    return this.#state;
  }

  /** The bound address (after {@link listen}); `port` is the real one when 0 was asked for. */
  get address(): AddressInfo {
    const address = this.#http.address();
    if (address === null || typeof address === "string") throw new Error("the server is not listening");
    return address;
  }

  /** Each lane's requests admitted, running and waiting now (a copy; see {@link AdmissionGate.lanes}). */
  get admission(): Record<Lane, LaneAdmission> {
    return this.#gate.lanes();
  }

  /**
   * Each lane's work before admission: places held, requests waiting for or in their preparation,
   * and since start the preparations run, those dropped because their client had gone, and the
   * refusals (a copy; see {@link PreAdmission}).
   */
  get preAdmission(): Record<Lane, LanePreAdmission> {
    return this.#preAdmission.lanes();
  }

  /** Each lane's evaluations since start: handed to the engine, and abandoned for a client that went away (a copy). */
  get evaluations(): Record<Lane, LaneEvaluations> {
    return {
      interactive: { ...this.#evaluations.interactive },
      bulk: { ...this.#evaluations.bulk },
    };
  }

  /** The request limits in force: the configured ones capped by the engine's (after {@link load}). */
  get limits(): RequestLimits | undefined {
    return this.#limits;
  }

  /**
   * Starts accepting connections; `/ping` answers 503 until {@link load} succeeds.
   * @throws the listen error (e.g. `EADDRINUSE`).
   */
  async listen(): Promise<AddressInfo> {
    if (this.#state !== "idle") throw new Error(`cannot listen when ${this.#state}`);
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.#http.once("error", onError);
      this.#http.listen(this.#settings.port, this.#settings.host, () => {
        this.#http.off("error", onError);
        resolve();
      });
    });
    this.#state = "listening";
    this.#logger.log("info", "listening", { host: this.address.address, port: this.address.port });
    return this.address;
  }

  /**
   * Loads the engine, scores the probe decision, then serves: logs one `ready` line with the model
   * identity and the limits in force.
   * @throws StartupError when loading or the probe fails (the cause says why); the server stays
   *   up answering 503 until closed.
   */
  async load(): Promise<void> {
    if (this.#state !== "listening" && this.#state !== "idle")
      throw new Error(`cannot load when ${this.#state}`);
    this.#state = "loading";
    const started = performance.now();
    let engine: DecisionEngine;
    try {
      engine = await this.#loadEngine(this.#loadController.signal);
    } catch (error) {
      if (this.#state === "loading") this.#state = "failed";
      throw new StartupError(`the model could not be loaded: ${messageOf(error)}`, { cause: error });
    }
    if (this.#isStopping()) {
      await engine.dispose();
      throw new StartupError("the server stopped while the model was loading");
    }
    let probeMs: number;
    try {
      probeMs = await probeEngine(engine, this.#loadController.signal);
    } catch (error) {
      await engine.dispose();
      if (this.#state === "loading") this.#state = "failed";
      throw error instanceof StartupError
        ? error
        : new StartupError("the probe decision failed", { cause: error });
    }
    if (this.#isStopping()) {
      await engine.dispose();
      throw new StartupError("the server stopped while the model was loading");
    }
    this.#engine = engine;
    this.#adapterBuild = adapterBuildOf(engine);
    this.#limits = limitsInForce(this.#settings, engine);
    this.#state = "ready";
    const cache = engine.cacheStats();
    this.#logger.log("info", "ready", {
      ...this.#readyFields,
      model: engine.identity,
      adapter_build: this.#adapterBuild,
      prompt_version: engine.promptVersion,
      context_size: engine.contextSize,
      model_max_options: engine.maxOptions,
      // The bound the engine settled on: explicit, or sized from the machine when the model loaded.
      cache_max_bytes: cache.max_bytes,
      cache_max_bytes_source: cache.max_bytes_source,
      limits: {
        ...this.#limits,
        max_body_bytes: this.#settings.maxBodyBytes,
        body_read_bytes: this.#bodies.maxBytes,
        max_in_flight: this.#settings.maxInFlight,
        queue_depth: this.#settings.queueDepth,
        interactive_reserve: this.#settings.interactiveReserve,
        request_timeout_ms: this.#settings.requestTimeoutMs,
      },
      load_ms: Math.round(performance.now() - started),
      probe_ms: Math.round(probeMs),
    });
  }

  /**
   * Graceful shutdown: stops accepting connections (`/ping` and new invocations answer 503 on
   * open ones), lets in-flight requests finish (aborting them after `shutdownTimeoutMs`), closes
   * every connection and disposes the engine. Safe to call more than once.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #shutdown(): Promise<void> {
    const wasListening = this.#state !== "idle";
    this.#state = "stopping";
    this.#loadController.abort(
      new ServiceUnavailableError("the server is stopping", this.#settings.retryAfterSeconds),
    );
    this.#logger.log("info", "stopping", { in_flight: this.#gate.admitted, lanes: this.#gate.lanes() });
    const closed = wasListening
      ? new Promise<void>((resolve) => this.#http.close(() => resolve()))
      : Promise.resolve();
    this.#http.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      this.#gate.idle().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), this.#settings.shutdownTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!drained) {
      this.#logger.log("warn", "shutdown_timeout", { aborted: this.#inFlight.size });
      for (const controller of this.#inFlight) {
        controller.abort(
          new ServiceUnavailableError("the server is stopping", this.#settings.retryAfterSeconds),
        );
      }
      await this.#gate.idle();
    }
    this.#http.closeAllConnections();
    await closed;
    const engine = this.#engine;
    this.#engine = undefined;
    if (engine !== undefined) {
      try {
        await engine.dispose();
      } catch (error) {
        this.#logger.log("error", "dispose_failed", { error });
      }
    }
    this.#state = "stopped";
    for (const lane of LANES) this.#refusals[lane].flush();
    this.#logger.log("info", "stopped", {});
  }

  #isStopping(): boolean {
    return this.#state === "stopping" || this.#state === "stopped";
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = (request.url ?? "/").split("?", 1)[0] ?? "/";
    const record: RequestRecord = { method: request.method ?? "", path, status: 0, duration_ms: 0 };
    try {
      await this.#route(request, response, path, record);
    } catch (error) {
      // #route answers every error itself; reaching here is a defect, still never a crash.
      this.#logger.log("error", "handler_failed", { path, error });
      this.#send(
        request,
        response,
        500,
        { error: "internal error while answering the request", retryable: false },
        {},
      );
      record.status = 500;
    }
    record.duration_ms = Math.round((performance.now() - started) * 100) / 100;
    if (record.refused === true) {
      this.#refusals[record.lane ?? DEFAULT_REQUEST_LANE].record(path);
      return;
    }
    logRequest(this.#logger, record);
  }

  async #route(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    record: RequestRecord,
  ): Promise<void> {
    const route = ROUTE_TABLE.get(path);
    const method = request.method ?? "";
    if (route === undefined) {
      this.#fail(request, response, new NotFoundError(path), record);
      return;
    }
    if (!route.methods.includes(method)) {
      this.#fail(request, response, new MethodNotAllowedError(method, path, route.methods), record);
      return;
    }
    if (route.accepts === "ping") {
      const ready = this.#state === "ready";
      record.status = ready ? 200 : 503;
      this.#send(request, response, record.status, { status: ready ? "ok" : this.#state }, {});
      return;
    }
    await this.#invoke(request, response, route.accepts, record);
  }

  /**
   * An invocation, step by step: refused at once when the server is not ready or has no room for
   * it ({@link #enter}); else its body read, then parsed and prepared in its lane's turn, then
   * admitted, started and evaluated, and answered. Every failure is mapped to its answer by class.
   */
  async #invoke(
    request: IncomingMessage,
    response: ServerResponse,
    accepts: InvocationKind | "auto",
    record: RequestRecord,
  ): Promise<void> {
    const engine = this.#engine;
    const limits = this.#limits;
    const retryAfter = this.#settings.retryAfterSeconds;
    const lane = laneOfRequest(request);
    record.lane = lane;
    if (this.#state !== "ready" || engine === undefined || limits === undefined) {
      const why = this.#isStopping() ? "the server is stopping" : "the model is not loaded yet";
      this.#fail(
        request,
        response,
        new ServiceUnavailableError(`${why}; retry the request`, retryAfter),
        record,
      );
      return;
    }
    const place = this.#enter(request, response, lane, record);
    if (place === undefined) return;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const deadlineMs = this.#settings.requestTimeoutMs;
    const deadline = setTimeout(() => controller.abort(new RequestDeadlineError(deadlineMs)), deadlineMs);
    const onClose = (): void => {
      if (!response.writableFinished) controller.abort(new ClientDisconnectedError());
    };
    response.once("close", onClose);
    const signal = controller.signal;
    const refused = (): void => {
      record.refused = true;
    };
    let prepared: PreparedInvocation | undefined;
    let ticket: AdmissionTicket | undefined;
    let evaluating = false;
    const lease = this.#bodies.open();
    try {
      // The body is read before the request takes a place in the gate, within its own deadline and
      // pace, charged by the bytes it holds: a slow or idle sender holds those bytes, never an
      // admission, nor the room another request's body needs.
      const text = await readBodyInTime(request, {
        maxBytes: this.#settings.maxBodyBytes,
        timeoutSeconds: this.#settings.bodyTimeoutSeconds,
        pace: this.#bodyPace,
        lease,
        signal,
        retryAfterSeconds: retryAfter,
        onRefused: refused,
      });
      // Parsing, rendering and tokenizing (on the engine's prompt worker, off the event loop) wait
      // for their turn, interactive first; a request whose client has gone meanwhile is dropped.
      prepared = await prepareInTurn(place, text, {
        accepts,
        limits,
        engine,
        maxStateBytesPerToken: this.#settings.maxStateBytesPerToken,
        requestTimeoutMs: deadlineMs,
        retryAfterSeconds: retryAfter,
        atCapacity: () => this.#atCapacity(lane),
        onRefused: refused,
        signal,
      });
      record.kind = prepared.invocation.kind;
      // Prepared: the body's bytes are no longer held for it (the gate bounds what runs and waits).
      lease.release();
      ticket = this.#gate.tryAdmit(lane);
      place.leave();
      if (ticket === undefined) {
        refused();
        throw this.#atCapacity(lane);
      }
      await startInTime(ticket, {
        signal,
        requestTimeoutMs: deadlineMs,
        retryAfterSeconds: retryAfter,
        onRefused: refused,
      });
      this.#evaluations[lane].started += 1;
      evaluating = true;
      const answer = await answerInvocation(engine, prepared, signal, this.#adapterBuild);
      record.status = 200;
      record.summary = answer.summary;
      this.#send(request, response, 200, answer.body, {});
    } catch (error) {
      if (evaluating && signal.reason instanceof ClientDisconnectedError)
        this.#evaluations[lane].abandoned += 1;
      const mapped = mapEngineError(error, {
        fields: prepared?.fields,
        signal,
        retryAfterSeconds: retryAfter,
      });
      if (mapped instanceof ClientDisconnectedError) {
        record.status = 499;
        record.error = mapped.message;
      } else {
        if (
          mapped.status >= 500 &&
          !(mapped instanceof ServiceUnavailableError) &&
          !(mapped instanceof RequestDeadlineError)
        ) {
          this.#logger.log("error", "request_failed", { path: record.path, error });
        }
        this.#fail(request, response, mapped, record);
      }
    } finally {
      clearTimeout(deadline);
      response.off("close", onClose);
      this.#inFlight.delete(controller);
      lease.release();
      place.leave();
      ticket?.release();
    }
  }

  /**
   * A request's place before its body is read, or `undefined` once it is answered 503 (a refusal):
   * at capacity the answer comes at once, before the body is read (the sender need not upload):
   * the gate is full, its lane has no place left before admission, or the bodies being read hold
   * so much that this one's declared length (at least a byte) would not fit. A length over the
   * body limit is left to its 413.
   */
  #enter(
    request: IncomingMessage,
    response: ServerResponse,
    lane: Lane,
    record: RequestRecord,
  ): PreAdmissionPlace | undefined {
    const length = declaredLength(request);
    const expected = length === undefined || Number.isNaN(length) ? 1 : Math.max(1, length);
    if (!this.#gate.hasRoomFor(lane)) {
      record.refused = true;
      this.#fail(request, response, this.#atCapacity(lane), record);
      return undefined;
    }
    const place = this.#preAdmission.tryEnter(lane);
    if (place === undefined) {
      record.refused = true;
      this.#fail(request, response, this.#atCapacity(lane), record);
      return undefined;
    }
    if (expected <= this.#settings.maxBodyBytes && !this.#bodies.fits(expected)) {
      // Refused before its body is read: the place goes back at once, or its lane would keep it.
      place.leave();
      const busy = new ServiceUnavailableError(
        "the server is at capacity; retry the request",
        this.#settings.retryAfterSeconds,
      );
      record.refused = true;
      this.#fail(request, response, busy, record);
      return undefined;
    }
    return place;
  }

  /** The 503 for a request of `lane` the gate has no room for ({@link atCapacityError}). */
  #atCapacity(lane: Lane): ServiceUnavailableError {
    return atCapacityError(this.#gate, lane, this.#settings.retryAfterSeconds);
  }

  #fail(request: IncomingMessage, response: ServerResponse, error: HttpError, record: RequestRecord): void {
    record.status = error.status;
    record.error = error.message;
    record.retryable = error.retryable;
    this.#send(request, response, error.status, error.toBody(), error.headers);
  }

  #send(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Readonly<Record<string, string>>,
  ): void {
    sendJson(request, response, status, body, headers, {
      hideCacheDetails: this.#settings.hideCacheDetails,
      stopping: this.#isStopping(),
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
