import type { Context } from "aws-lambda";
import type { IngestResult } from "../../functions/ingest/index.js";
import { IngestWorkflowError } from "../errors.js";
import type { StateMachinePlan } from "../stack/LocalStackPlan.js";
import { localStateMachine } from "./localStateMachine.js";
import { type ObjectCreatedEvent, objectCreatedEvent } from "./objectCreatedEvent.js";
import type { CreatedObject } from "./readObjectCreated.js";
import { type IngestWorkflowResult, runIngestWorkflow } from "./runIngestWorkflow.js";

/** The key prefix the CDK app ingests by default (its `ingestPrefix` setting). */
export const DEFAULT_INGEST_PREFIX = "incoming/";
/** The key suffix the CDK app ingests by default (its `ingestSuffix` setting). */
export const DEFAULT_INGEST_SUFFIX = ".jsonl";

/** One object the trigger ingested (or tried to). */
export interface IngestedObjectReport {
  bucket: string;
  key: string;
  eTag?: string;
  /** What the workflow did; absent when it failed. */
  result?: IngestWorkflowResult;
  /** Why it failed (the ingest function threw, or the workflow stalled or was stopped). */
  error?: unknown;
  /** From the event to the workflow's end. */
  elapsedMs: number;
}

/** Options of {@link IngestTrigger}. */
export interface IngestTriggerOptions {
  /** The ingest bucket: objects of other buckets are ignored, as the rule's pattern does. */
  bucket: string;
  /** Only keys starting with this. Default {@link DEFAULT_INGEST_PREFIX}. */
  prefix?: string;
  /** Only keys ending with this. Default {@link DEFAULT_INGEST_SUFFIX}. */
  suffix?: string;
  region: string;
  /** The ingest state machine as the template declares it: its definition runs for each object. */
  stateMachine: StateMachinePlan;
  /** The function its Task states invoke (the template's logical id). */
  functionId: string;
  /** Invokes the ingest function. */
  invoke: (input: unknown, context: Context) => Promise<IngestResult>;
  /** The ingest function's timeout. Default 300000 ms (the CDK app's). */
  timeoutMs?: number;
  /** Told when an object's workflow ended (successfully or not). Default: nothing. */
  onIngested?: (report: IngestedObjectReport) => void;
}

/**
 * The deployed S3 → EventBridge rule → ingest state machine, on the local stack: each object
 * created in the bucket whose key matches `<prefix>*<suffix>` (the rule's wildcard) becomes an
 * EventBridge "Object Created" event, and the template's ingest state machine runs on it
 * ({@link runIngestWorkflow}).
 * Workflows run one after another in the order the objects were created (on AWS they run side by
 * side; here one at a time keeps a busy machine's cores for the decide function).
 */
export class IngestTrigger {
  readonly prefix: string;
  readonly suffix: string;
  readonly #options: IngestTriggerOptions;
  readonly #abort = new AbortController();
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  /**
   * @throws StackTemplateError when the state machine's definition is one the local stack cannot
   *   run (JSONata, a task calling anything but the function); whether it is valid ASL is checked
   *   at the first object (half a second of CPU that a start without uploads does not spend).
   */
  constructor(options: IngestTriggerOptions) {
    localStateMachine(options.stateMachine, options.functionId, { region: options.region });
    this.#options = options;
    this.prefix = options.prefix ?? DEFAULT_INGEST_PREFIX;
    this.suffix = options.suffix ?? DEFAULT_INGEST_SUFFIX;
  }

  /** Whether the rule's pattern matches an object of this bucket and key. */
  matches(bucket: string, key: string): boolean {
    return (
      bucket === this.#options.bucket &&
      key.length >= this.prefix.length + this.suffix.length &&
      key.startsWith(this.prefix) &&
      key.endsWith(this.suffix)
    );
  }

  /**
   * Takes a created object: when it matches, its workflow is queued and this returns its event;
   * otherwise (or once stopping) it returns undefined and nothing runs.
   */
  notify(object: CreatedObject): ObjectCreatedEvent | undefined {
    if (this.#abort.signal.aborted || !this.matches(object.bucket, object.key)) return undefined;
    const event = objectCreatedEvent(object, this.#options.region);
    this.#waiting += 1;
    this.#tail = this.#tail.then(() => this.#run(object, event));
    return event;
  }

  /** Workflows queued or running. */
  get busy(): number {
    return this.#waiting;
  }

  /** Resolves when every workflow queued so far has ended. */
  async idle(): Promise<void> {
    await this.#tail;
  }

  /** Takes no more objects, stops the running workflow between invocations and waits for it. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#tail;
  }

  async #run(object: CreatedObject, event: ObjectCreatedEvent): Promise<void> {
    const started = performance.now();
    const report: IngestedObjectReport = {
      bucket: object.bucket,
      key: object.key,
      ...(object.eTag === undefined ? {} : { eTag: object.eTag }),
      elapsedMs: 0,
    };
    try {
      if (this.#abort.signal.aborted) {
        throw new IngestWorkflowError("stopped", [{ bucket: object.bucket, key: object.key, line: 1 }]);
      }
      report.result = await runIngestWorkflow(event, {
        stateMachine: this.#options.stateMachine,
        functionId: this.#options.functionId,
        invoke: this.#options.invoke,
        region: this.#options.region,
        signal: this.#abort.signal,
        ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
      });
    } catch (error) {
      report.error = error;
    } finally {
      this.#waiting -= 1;
    }
    report.elapsedMs = Math.round(performance.now() - started);
    try {
      this.#options.onIngested?.(report);
    } catch (error) {
      // The listener's failure is its own: told as a process warning, and the next workflow runs.
      process.emitWarning(`the ingest trigger's onIngested listener threw: ${String(error)}`);
    }
  }
}
