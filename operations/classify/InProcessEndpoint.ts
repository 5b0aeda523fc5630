import { InvalidDecisionError } from "../../adapter/engine/errors.js";
import { answerSystemOne } from "../../adapter/engine/systemOne/SystemOne.js";
import type { DecisionEngine, DecisionState } from "../../adapter/engine/types.js";
import {
  JsonText,
  jsonNodeAt,
  jsonValueOf,
  parseJsonText,
  SystemOneRequestSchema,
} from "../../contract/wire/index.js";
import type { EndpointInvocation } from "../../core/endpoint/index.js";
import { PermanentEndpointError } from "../../core/endpoint/index.js";
import type { DecisionEndpoint, EndpointCallOptions } from "../../core/pipeline/index.js";

/** Options of an {@link InProcessEndpoint}. */
export interface InProcessEndpointOptions {
  /** The engine (a loaded `Scorer`); the endpoint does not dispose it. */
  engine: DecisionEngine;
  /** The name outcomes record in `request.endpoint`. Default `"in-process"`. */
  endpointName?: string;
}

/**
 * The decision endpoint without HTTP (the pipeline core's `DecisionEndpoint` port for
 * `decisions classify`): answers the System One request body the core builds
 * (`buildSystemOneBody`) with the engine in this process, the way the adapter answers it
 * on `/invocations` — the state taken from the body's own text (a string state as its value, an
 * object or array as a `JsonText` of its slice), so the prompt and its hash are byte-identical to
 * the pipeline's — and returns the response body as text, as `EndpointClient.invoke` does.
 *
 * @example
 * const endpoint = new InProcessEndpoint({ engine: scorer });
 * const { body } = await endpoint.invoke(buildSystemOneBody(policy, stateText));
 */
export class InProcessEndpoint implements DecisionEndpoint {
  readonly endpointName: string;
  readonly #engine: DecisionEngine;

  constructor(options: InProcessEndpointOptions) {
    this.#engine = options.engine;
    this.endpointName = options.endpointName ?? "in-process";
  }

  /**
   * Answers one System One request body. The engine is never retried and has no deadline of its
   * own: only `signal` of the options is used (it aborts the evaluation in flight).
   *
   * @throws PermanentEndpointError when the request cannot be answered for good (the adapter's
   *   4xx: an invalid request, a state longer than the context, too many options).
   * @throws whatever else the engine throws (a failed model, an abort).
   */
  async invoke(body: string, options: Pick<EndpointCallOptions, "signal"> = {}): Promise<EndpointInvocation> {
    const started = performance.now();
    try {
      const root = parseJsonText(body);
      const parsed = SystemOneRequestSchema.safeParse(jsonValueOf(root));
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new PermanentEndpointError({
          endpointName: this.endpointName,
          errorName: "ValidationError",
          originalStatusCode: 400,
          originalMessage: `${first?.path.join(".") ?? ""}: ${first?.message ?? "not a System One request"}`,
        });
      }
      const stateNode = jsonNodeAt(root, ["state"]);
      // The schema has checked that a state is there; it was parsed from this very tree.
      const state: DecisionState =
        stateNode === undefined || stateNode.kind === "string"
          ? (stateNode?.value ?? "")
          : new JsonText(body.slice(stateNode.start, stateNode.end));
      const response = await answerSystemOne(
        this.#engine,
        { ...parsed.data, state },
        options.signal ? { signal: options.signal } : {},
      );
      const ms = performance.now() - started;
      return {
        body: JSON.stringify(response),
        requestId: undefined,
        attempts: 1,
        latencyMs: ms,
        totalMs: ms,
      };
    } catch (error) {
      if (!(error instanceof InvalidDecisionError)) throw error;
      throw new PermanentEndpointError(
        {
          endpointName: this.endpointName,
          errorName: error.name,
          originalStatusCode: 400,
          originalMessage: error.message,
        },
        { cause: error },
      );
    }
  }
}
