import type { EndpointClient } from "../endpoint/index.js";
import { type Outcome, OutcomeAlreadyRecordedError, type OutcomeStore } from "../outcomes/index.js";
import { decide } from "../policy/index.js";
import type { Clock } from "../shared/Clock.js";
import type { Deadline } from "../shared/Deadline.js";
import { DeadlineExceededError, PermanentError } from "../shared/errors.js";
import { mapBounded } from "../shared/mapBounded.js";
import { decidedOutcome, type OutcomeTimes, refusedItemOutcome } from "./buildOutcome.js";
import { buildSystemOneBody } from "./buildSystemOneBody.js";
import { OUTCOME_WRITE_CONCURRENCY } from "./constants.js";
import type { DecideTelemetry } from "./DecideTelemetry.js";
import { readSystemOneResponse } from "./readSystemOneResponse.js";
import type { DecisionGroup, RecordResult } from "./types.js";

/** What {@link decideGroup} and {@link writeOutcome} need. */
export interface GroupDeps {
  endpoint: EndpointClient;
  outcomes: OutcomeStore;
  telemetry: DecideTelemetry;
  clock: Clock;
}

/** The two moments that bound a batch: no group starts after `startBy`; no write runs after `finishBy`. */
export interface BatchDeadlines {
  startBy: Deadline;
  finishBy: Deadline;
  batchStartedAt: number;
}

/**
 * Decides one group: one InvokeEndpoint with all the policy's questions on the group's state, the
 * policy applied to each item's facts, one outcome written per item. Returns each item's settled
 * result, in group order; never throws.
 *
 * - Deadline passed before it starts → every item fails (`DeadlineExceededError`), nothing written.
 * - A permanent endpoint failure (4xx from the model) → a `rejected` outcome per item.
 * - Anything else failing the request (transient after retries, an invalid response) → every
 *   item fails, nothing written for them.
 */
export async function decideGroup(
  group: DecisionGroup,
  deps: GroupDeps,
  deadlines: BatchDeadlines,
): Promise<PromiseSettledResult<RecordResult>[]> {
  const size = group.items.length;
  const failAll = (reason: unknown) => group.items.map(() => ({ status: "rejected", reason }) as const);
  if (deadlines.startBy.expired())
    return failAll(new DeadlineExceededError(`${size} item(s) of ${group.policy.name}`));

  let invocation: Awaited<ReturnType<EndpointClient["invoke"]>>;
  try {
    invocation = await deps.endpoint.invoke(buildSystemOneBody(group.policy, group.stateText), {
      deadline: deadlines.startBy,
      onRetry: (event) => deps.telemetry.retrying(`endpoint for ${group.policy.name}`, event),
    });
  } catch (error) {
    if (!(error instanceof PermanentError)) return failAll(error);
    const times = timesNow(deps.clock, deadlines);
    return mapBounded(group.items, OUTCOME_WRITE_CONCURRENCY, (item) =>
      writeOutcome(
        refusedItemOutcome(item, error.message, deps.endpoint.endpointName, size, times),
        deps,
        deadlines,
      ),
    );
  }
  deps.telemetry.requestAnswered(group.policy.name, size, invocation);

  let read: ReturnType<typeof readSystemOneResponse>;
  try {
    read = readSystemOneResponse(invocation.body, group.policy, deps.endpoint.endpointName);
  } catch (error) {
    return failAll(error);
  }
  const request = { endpointName: deps.endpoint.endpointName, invocation, read, groupSize: size };
  return mapBounded(group.items, OUTCOME_WRITE_CONCURRENCY, (item) => {
    const decision = decide(group.policy, item.facts, read.response.answers);
    return writeOutcome(
      decidedOutcome(item, decision, request, timesNow(deps.clock, deadlines)),
      deps,
      deadlines,
    );
  });
}

/**
 * Writes one outcome under the finish deadline. An outcome that already stands is a success
 * (`duplicate`): the first one stands.
 *
 * @throws transient errors (after retries) and store errors: the record goes back to SQS.
 */
export async function writeOutcome(
  outcome: Outcome,
  deps: Pick<GroupDeps, "outcomes" | "telemetry">,
  deadlines: Pick<BatchDeadlines, "finishBy">,
): Promise<RecordResult> {
  try {
    const written = await deps.outcomes.put(outcome, {
      deadline: deadlines.finishBy,
      onRetry: (event) => deps.telemetry.retrying(`outcome ${outcome.policy}/${outcome.id}`, event),
    });
    deps.telemetry.outcomeWritten(written.policy, written.status);
    return { status: "recorded", outcome: written };
  } catch (error) {
    if (!(error instanceof OutcomeAlreadyRecordedError)) throw error;
    deps.telemetry.duplicate(outcome.policy, outcome.id);
    return { status: "duplicate", policy: outcome.policy, id: outcome.id };
  }
}

function timesNow(clock: Clock, deadlines: BatchDeadlines): OutcomeTimes {
  return { now: clock.now(), batchStartedAt: deadlines.batchStartedAt };
}
