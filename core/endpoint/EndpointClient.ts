import { InvokeEndpointCommand, type SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { type Lane, laneOfAttributes } from "../../contract/lanes/lanes.js";
import { Deadline } from "../common/Deadline.js";
import type { RetryEvent, RetryPolicy } from "../common/RetryPolicy.js";
import type { AdaptiveConcurrencyLimiter, Permit } from "../flow/AdaptiveConcurrencyLimiter.js";
import type { CallLatencyEstimate } from "../flow/CallLatencyEstimate.js";
import { classifyEndpointError } from "./classifyEndpointError.js";
import { EndpointBusyError, TransientEndpointError } from "./errors.js";

/** Options of an {@link EndpointClient}. */
export interface EndpointClientOptions {
  /**
   * The SageMaker runtime client, built with `maxAttempts: 1`: the retries are the policy's
   * (see {@link createSageMakerRuntimeClient}).
   */
  client: SageMakerRuntimeClient;
  /** The SageMaker endpoint's name. */
  endpointName: string;
  /**
   * The inference component every call names (`InferenceComponentName`): on an endpoint that hosts
   * components, the one that serves the call
   * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpoint.html).
   * Default none: the endpoint's variant serves it.
   */
  inferenceComponentName?: string;
  /** The one retry policy for the call. */
  retry: RetryPolicy;
  /**
   * The function instance's adaptive concurrency limit: every attempt takes a permit first and
   * reports how it ended (served, at capacity with its Retry-After, failed otherwise). Default:
   * none (the caller bounds concurrency alone).
   */
  limiter?: AdaptiveConcurrencyLimiter;
  /**
   * The function instance's estimate of its calls' latency: no attempt starts later than the
   * deadline less the time a call needs ({@link CallLatencyEstimate.neededMs}) while other calls
   * of the instance are out, so the deadline does not abort calls the endpoint is working on.
   * Needs the limiter (which knows the calls out). Default: none (attempts start until the deadline).
   */
  latency?: CallLatencyEstimate;
  /**
   * SageMaker's `CustomAttributes` sent with every call (forwarded to the container as the
   * `X-Amzn-SageMaker-Custom-Attributes` header), e.g. the caller's lane (`lane=bulk`). Default none.
   */
  customAttributes?: string;
}

/** Per-call settings of {@link EndpointClient.invoke}. */
export interface InvokeOptions {
  /** No attempt starts past it, and a running attempt is aborted when it passes. */
  deadline: Deadline;
  /** Called before each backoff. */
  onRetry?: (event: RetryEvent) => void;
}

/** A successful invocation. */
export interface EndpointInvocation {
  /** The response body as text. */
  body: string;
  /** SageMaker's request id of the successful attempt (`x-amzn-requestid`), when it sent one. */
  requestId: string | undefined;
  /** Attempts made, the successful one included. */
  attempts: number;
  /** Duration of the successful attempt, in milliseconds. */
  latencyMs: number;
  /** From the first attempt to the answer, backoffs included, in milliseconds. */
  totalMs: number;
}

/**
 * Calls one SageMaker endpoint with a JSON body (`InvokeEndpoint`, `application/json`), retrying
 * transient failures under the pipeline's {@link RetryPolicy} and translating SDK errors with
 * {@link classifyEndpointError} as they enter.
 *
 * @example
 * const endpoint = new EndpointClient({ client, endpointName: "decisions", retry });
 * const { body } = await endpoint.invoke(JSON.stringify(request), { deadline });
 */
export class EndpointClient {
  readonly endpointName: string;
  /** The inference component every call names; undefined when none. */
  readonly inferenceComponentName: string | undefined;
  readonly #client: SageMakerRuntimeClient;
  readonly #retry: RetryPolicy;
  readonly #limiter: AdaptiveConcurrencyLimiter | undefined;
  readonly #latency: CallLatencyEstimate | undefined;
  readonly #customAttributes: string | undefined;
  /** The lane its custom attributes name (`lane=bulk`), which outcomes record; undefined when none. */
  readonly lane: Lane | undefined;

  constructor(options: EndpointClientOptions) {
    this.#client = options.client;
    this.endpointName = options.endpointName;
    this.inferenceComponentName = options.inferenceComponentName;
    this.#retry = options.retry;
    this.#limiter = options.limiter;
    this.#latency = options.latency;
    this.#customAttributes = options.customAttributes;
    this.lane = laneOfAttributes(options.customAttributes);
  }

  /**
   * Sends `body` and returns the endpoint's answer.
   *
   * @throws PermanentEndpointError for a 4xx from the model or a SageMaker validation error (not retried).
   * @throws RetriesExhaustedError (transient) when transient failures outlast the attempts, the deadline
   *   or the retry budget; its `cause` is the last failure (an {@link EndpointBusyError} when no
   *   permit of the limiter came before the deadline).
   * @throws DeadlineExceededError when the deadline had passed before the first attempt, or left
   *   less time than a call needs by the latency estimate (busy: the record is re-queued).
   */
  async invoke(body: string, options: InvokeOptions): Promise<EndpointInvocation> {
    const { deadline } = options;
    const clock = deadline.clock;
    const started = clock.now();
    // Attempts start only while the usual answer time still fits before the deadline; a running
    // attempt is still aborted at the deadline itself. While none of this instance's calls is
    // out, the call may start anyway: an estimate that ran high (a slow spell) must not keep an
    // instance from ever calling again, and the call's answer corrects it.
    const othersOut = (this.#limiter?.stats().inFlight ?? 0) > 0;
    const neededMs = othersOut ? (this.#latency?.neededMs() ?? 0) : 0;
    const startBy = new Deadline(deadline.at - neededMs, clock);
    let attempts = 0;
    return this.#retry.run(
      async (attempt) => {
        attempts = attempt;
        let permit: Permit | undefined;
        if (this.#limiter !== undefined) {
          permit = await this.#limiter.acquire(startBy);
          if (permit === undefined) throw new EndpointBusyError(this.endpointName);
        }
        const attemptStarted = clock.now();
        try {
          const output = await this.#client.send(
            new InvokeEndpointCommand({
              EndpointName: this.endpointName,
              ...(this.inferenceComponentName === undefined
                ? {}
                : { InferenceComponentName: this.inferenceComponentName }),
              ContentType: "application/json",
              Accept: "application/json",
              ...(this.#customAttributes === undefined ? {} : { CustomAttributes: this.#customAttributes }),
              Body: new TextEncoder().encode(body),
            }),
            { abortSignal: AbortSignal.timeout(Math.max(1, deadline.remainingMs())) },
          );
          const text = output.Body === undefined ? "" : new TextDecoder().decode(output.Body);
          const finished = clock.now();
          this.#latency?.observe(finished - attemptStarted);
          permit?.release("ok");
          return {
            body: text,
            requestId: output.$metadata.requestId,
            attempts,
            latencyMs: finished - attemptStarted,
            totalMs: finished - started,
          };
        } catch (error) {
          // Aborted by the deadline while the endpoint still worked on it: it is slower than the
          // demand. An overload signal for the limiter, and busy (re-queued), not a failure.
          if (deadline.expired() && isAbort(error)) {
            permit?.release("overload");
            throw new EndpointBusyError(this.endpointName, "deadline", { cause: error });
          }
          const classified = classifyEndpointError(error, this.endpointName);
          if (classified instanceof TransientEndpointError && classified.atCapacity) {
            permit?.release("overload", classified.retryAfterMs);
          } else {
            permit?.release("error");
          }
          throw classified;
        }
      },
      { deadline: startBy, ...(options.onRetry ? { onRetry: options.onRetry } : {}) },
    );
  }
}

/** An abort or a timeout of the SDK call (the deadline's signal fired). */
function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "TimeoutError";
}
