import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import type { BasePersistenceLayer } from "@aws-lambda-powertools/idempotency/persistence";
import type { Context } from "aws-lambda";
import type { AcceptedAnswer } from "../../contract/intake/index.js";
import { INTAKE_IDEMPOTENCY_SECONDS } from "../../contract/intake/index.js";

/** What one request's answer is kept under: its scoped key and the payload it was given for. */
export interface IdempotentRequest {
  /** `<caller>#<key>`: the caller scopes the key, so two senders' keys never meet. */
  key: string;
  /** The items' texts: a second request under the key with other items is refused, not answered. */
  payload: readonly string[];
}

/** A kept answer, and whether it was given before. */
export interface IdempotentAnswer {
  answer: AcceptedAnswer;
  /** True when the answer is the first request's, given again. */
  replayed: boolean;
}

/** Options of {@link IntakeIdempotency}. */
export interface IntakeIdempotencyOptions {
  /** Where answers are kept: Powertools' DynamoDB persistence layer on the front door's table. */
  persistenceStore: BasePersistenceLayer;
  /** How long an answer is kept, in seconds. Default {@link INTAKE_IDEMPOTENCY_SECONDS} (24 hours). */
  expiresAfterSeconds?: number;
}

/**
 * The front door's retries, through Powertools idempotency: the first request under a key runs
 * and its 202 answer is kept; a request under the same key gets that answer again and sends
 * nothing. A request under the same key with other items fails with Powertools'
 * `IdempotencyValidationError`; one while the first still runs, with
 * `IdempotencyAlreadyInProgressError`. A run that throws keeps nothing, so its retry runs again.
 *
 * The in-progress mark expires with the request's deadline (the Lambda context's remaining time),
 * so a request cut off mid-way does not hold its key for the whole expiry.
 */
export class IntakeIdempotency {
  readonly #persistenceStore: BasePersistenceLayer;
  readonly #expiresAfterSeconds: number;

  constructor(options: IntakeIdempotencyOptions) {
    this.#persistenceStore = options.persistenceStore;
    this.#expiresAfterSeconds = options.expiresAfterSeconds ?? INTAKE_IDEMPOTENCY_SECONDS;
  }

  /**
   * Runs `accept` once per key and returns its answer, or the answer kept for the key.
   * @param context the request's Lambda context (locally, one made for the request): its
   *   remaining time bounds the in-progress mark.
   */
  async run(
    request: IdempotentRequest,
    context: Context,
    accept: () => Promise<AcceptedAnswer>,
  ): Promise<IdempotentAnswer> {
    // One config per request: Powertools keeps the registered context on it.
    const config = new IdempotencyConfig({
      eventKeyJmesPath: "key",
      payloadValidationJmesPath: "payload",
      expiresAfterSeconds: this.#expiresAfterSeconds,
      // The kept answer was stored with `replayed: false`; given again, it says so.
      responseHook: (response) =>
        typeof response === "object" && response !== null && !Array.isArray(response)
          ? { ...response, replayed: true }
          : response,
    });
    config.registerLambdaContext(context);
    const once = makeIdempotent(
      async (_request: IdempotentRequest): Promise<KeptAnswer> => ({
        answer: JSON.stringify(await accept()),
        replayed: false,
      }),
      { persistenceStore: this.#persistenceStore, config, keyPrefix: "front-door" },
    );
    const kept = await once(request);
    return {
      answer: typeof kept.answer === "string" ? (JSON.parse(kept.answer) as AcceptedAnswer) : kept.answer,
      replayed: kept.replayed,
    };
  }
}

/**
 * The answer as kept: its JSON text, because the DynamoDB persistence layer stores an object as a
 * map, whose keys DynamoDB does not keep in order, and a retry gets the first answer's very body.
 * (An object: a record kept before the answer was kept as text.)
 */
interface KeptAnswer {
  answer: string | AcceptedAnswer;
  replayed: boolean;
}
