import type { Context } from "aws-lambda";
import type { RunOptions, StateMachine } from "aws-local-stepfunctions";
import {
  checkpointsOfEvent,
  type IngestCheckpoint,
  type IngestResult,
  UnknownIngestInputError,
} from "../../functions/ingest/index.js";
import { IngestWorkflowError } from "../errors.js";
import { createLambdaContext } from "../eventSource/createLambdaContext.js";
import type { StateMachinePlan } from "../stack/LocalStackPlan.js";
import { localStateMachine } from "./localStateMachine.js";

/** What {@link runIngestWorkflow} did with the objects of one event, all invocations together. */
export interface IngestWorkflowResult {
  /** Lines read (blank lines included). */
  linesRead: number;
  /** Messages sent to the work queue. */
  sent: number;
  /** Lines recorded as `rejected` outcomes. */
  rejected: number;
  /** Lines neither sent nor recorded in some invocation (each was read again from its checkpoint). */
  failed: number;
  /** Ingest invocations. */
  invocations: number;
}

/** Options of {@link runIngestWorkflow}. */
export interface RunIngestWorkflowOptions {
  /**
   * The ingest state machine as the template declares it (`LocalStackPlan.ingest.stateMachine`):
   * its definition is what runs.
   */
  stateMachine: StateMachinePlan;
  /** The function its Task states invoke (a logical id of the template: `LocalStackPlan.ingest.function`). */
  functionId: string;
  /** Invokes the ingest function (the local handler's `invoke`). */
  invoke: (input: unknown, context: Context) => Promise<IngestResult>;
  region: string;
  /** The ingest function's timeout. Default 300000 ms (the CDK app's `INGEST_TIMEOUT`). */
  timeoutMs?: number;
  /**
   * Invocations in a row that may end at the checkpoints they started from (every line of them
   * failed for now) before the run is stopped. Default 5. The deployed loop has no such bound but
   * its 12-hour timeout; locally a stuck queue should be told within seconds.
   */
  maxStalledInvocations?: number;
  /** Stops between invocations (the checkpoint to resume from is in the error). */
  signal?: AbortSignal;
}

/**
 * The CDK app's ingest state machine on this machine: its own definition, read from the
 * synthesized template (`options.stateMachine`), run by the ASL interpreter aws-local-stepfunctions
 * on the event (an EventBridge "Object Created" event, or an S3 notification), with each Task
 * state's call of the ingest function bound to `options.invoke` — as the `lambda:invoke`
 * integration passes it `Payload` and returns `{Payload, StatusCode}` — so an object of any length
 * is read in bounded invocations, every continuation followed, as the definition says.
 *
 * Two local guards stop the execution (as StopExecution would) between invocations: the signal,
 * and `maxStalledInvocations` invocations in a row that moved no checkpoint.
 *
 * @throws IngestWorkflowError when stopped by the signal or stalled, naming where to resume; the
 *   ingest function's own error when an invocation throws (the deployed execution fails too), or
 *   the interpreter's (`States.Timeout`, …) when the execution fails otherwise;
 *   StackTemplateError when the definition is one the interpreter cannot run.
 */
export async function runIngestWorkflow(
  event: unknown,
  options: RunIngestWorkflowOptions,
): Promise<IngestWorkflowResult> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const maxStalled = options.maxStalledInvocations ?? 5;
  const local = localStateMachine(options.stateMachine, options.functionId, { region: options.region });
  const total: IngestWorkflowResult = { linesRead: 0, sent: 0, rejected: 0, failed: 0, invocations: 0 };
  let stalled = 0;
  let ended: IngestWorkflowError | undefined;
  let abort: () => void = () => undefined;
  /** Ends the execution from a task: the interpreter's run is aborted and the error kept to throw. */
  const end = (error: IngestWorkflowError): never => {
    ended = error;
    abort();
    throw error;
  };
  const invoke = async (payload: unknown): Promise<IngestResult> => {
    // Once ended, a retrier of the definition (`States.ALL`) gets the same end, not another invocation.
    if (ended !== undefined) throw ended;
    const starts = checkpointsOf(payload);
    if (options.signal?.aborted) end(new IngestWorkflowError("stopped", starts));
    total.invocations += 1;
    const context = createLambdaContext({ functionName: "ingest", region: options.region, timeoutMs });
    const result = await options.invoke(payload, context);
    for (const done of result.objects) {
      total.linesRead += done.linesRead;
      total.sent += done.sent;
      total.rejected += done.rejected;
      total.failed += done.failed.length;
    }
    const stuck =
      starts.length > 0 &&
      result.pending.length > 0 &&
      result.pending.every((later) => starts.some((start) => samePlace(start, later)));
    stalled = stuck ? stalled + 1 : 0;
    if (stalled >= maxStalled) end(new IngestWorkflowError("stalled", result.pending));
    return result;
  };
  const handlers = Object.fromEntries(
    Object.entries(local.tasks).map(([name, call]) => [
      name,
      call === "function"
        ? (input: unknown) => invoke(input)
        : async (input: unknown) => ({
            ExecutedVersion: "$LATEST",
            Payload: await invoke((input as { Payload?: unknown }).Payload),
            StatusCode: 200,
          }),
    ]),
  );
  // The event and the function's results are JSON; the interpreter's types say so by index signatures.
  // aws-local-stepfunctions is loaded at the first object (its import and the definition's
  // validation take about a second of CPU that a stack ingesting nothing does not spend).
  const machine = await local.machine();
  const { ExecutionError } = await import("aws-local-stepfunctions");
  const execution = machine.run(event as ExecutionInput, {
    overrides: { taskResourceLocalHandlers: handlers as unknown as TaskHandlers },
  });
  abort = execution.abort;
  try {
    await execution.result;
  } catch (error) {
    if (ended !== undefined) throw ended;
    if (error instanceof ExecutionError && error.cause instanceof Error) throw error.cause;
    throw error;
  }
  return total;
}

/** An execution's input, as the interpreter types it (JSON). */
type ExecutionInput = Parameters<StateMachine["run"]>[0];

/** The interpreter's local stand-ins for Task states, by state name. */
type TaskHandlers = NonNullable<NonNullable<RunOptions["overrides"]>["taskResourceLocalHandlers"]>;

/** The checkpoints an input asks to read; none for an input the function does not take. */
function checkpointsOf(payload: unknown): IngestCheckpoint[] {
  try {
    return checkpointsOfEvent(payload);
  } catch (error) {
    if (error instanceof UnknownIngestInputError) return [];
    throw error;
  }
}

function samePlace(a: IngestCheckpoint, b: IngestCheckpoint): boolean {
  return a.bucket === b.bucket && a.key === b.key && a.byteOffset === b.byteOffset;
}
