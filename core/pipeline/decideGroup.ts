import type { Clock } from "../common/Clock.js";
import type { Deadline } from "../common/Deadline.js";
import { DeadlineExceededError, PermanentError } from "../common/errors.js";
import { mapBounded } from "../common/mapBounded.js";
import type { EndpointInvocation } from "../endpoint/index.js";
import type { Outcome } from "../outcomes/index.js";
import { applyPolicy } from "../policy/index.js";
import { markAudit } from "./auditOf.js";
import { decidedOutcome, type OutcomeTimes, refusedItemOutcome } from "./buildOutcome.js";
import { buildSystemOneBody } from "./buildSystemOneBody.js";
import type { PipelinePorts } from "./ports.js";
import { readSystemOneResponse } from "./readSystemOneResponse.js";
import type { DecisionGroup, ItemOrigin, ItemResult, ParsedItem } from "./types.js";

/** The ports {@link decideGroup} and {@link writeOutcome} use, the clock chosen. */
export type GroupPorts = Required<Omit<PipelinePorts, "states" | "shadow">> &
  Pick<PipelinePorts, "states" | "shadow">;

/** The two moments that bound a call: no group starts after `startBy`; no write runs after `finishBy`. */
export interface CallDeadlines {
  startBy: Deadline;
  finishBy: Deadline;
  /** When the call started (epoch milliseconds): outcomes record the time since. */
  startedAt: number;
}

/** How the groups of one call run. */
export interface GroupRun {
  deadlines: CallDeadlines;
  /** Outcome writes in flight at once in the group. */
  writeConcurrency: number;
  /** Once aborted, no group starts, and the endpoint is asked to abort the call in flight. */
  signal?: AbortSignal;
}

/** How a group ended: each item's result in group order, and whether the endpoint was asked. */
export interface GroupResult {
  results: ItemResult[];
  requested: boolean;
}

/**
 * Decides one group: one endpoint request with all the policy's questions on the group's state,
 * the policy applied to each item's facts, one outcome written per item. Never throws.
 *
 * - Deadline passed (or the run aborted) before it starts → every item fails
 *   (`DeadlineExceededError`, or the abort's reason), nothing written.
 * - Items the sink already holds (`OutcomeSink.holds`) are duplicates at once; when it holds them
 *   all, the endpoint is not asked.
 * - A permanent endpoint failure (4xx from the model) → a `rejected` outcome per item.
 * - Anything else failing the request (transient after retries, an invalid response) → every
 *   item fails, nothing written for them.
 * - With a shadow step, a group whose outcomes were written is handed to it afterwards (it
 *   samples, asks its candidate on its own and never touches these results).
 */
export async function decideGroup(
  group: DecisionGroup,
  ports: GroupPorts,
  run: GroupRun,
): Promise<GroupResult> {
  const size = group.items.length;
  const failAll = (reason: unknown): GroupResult => ({
    results: group.items.map(() => ({ status: "failed", reason })),
    requested: false,
  });
  const { deadlines } = run;
  if (deadlines.startBy.expired())
    return failAll(new DeadlineExceededError(`${size} item(s) of ${group.policy.name}`));
  if (run.signal?.aborted) return failAll(run.signal.reason);

  const results: ItemResult[] = new Array(size);
  const pending: { item: ParsedItem; at: number }[] = [];
  for (const [at, item] of group.items.entries()) {
    if (ports.outcomes.holds?.(item.policy.name, item.id) === true) {
      ports.telemetry.duplicate(item.policy.name, item.id);
      results[at] = { status: "duplicate", policy: item.policy.name, id: item.id };
    } else pending.push({ item, at });
  }
  if (pending.length === 0) return { results, requested: false };

  const writeAll = async (build: (item: ParsedItem) => Outcome): Promise<GroupResult> => {
    const written = await mapBounded(pending, run.writeConcurrency, ({ item }) =>
      writeOutcome(build(item), ports, deadlines.finishBy, item.origin),
    );
    for (const [i, { at }] of pending.entries()) results[at] = settled(written[i]);
    return { results, requested: true };
  };
  const { endpoint } = ports;
  const body = buildSystemOneBody(group.policy, group.stateText);
  // The candidate is asked beside the live call, not after it: a healthy one answers while the
  // live work goes on, and the batch's wait for it (a share of the live work's time) stays short.
  const begun = ports.shadow?.begin?.({
    policy: group.policy,
    stateText: group.stateText,
    items: pending.map(({ item }) => item),
    finishBy: deadlines.finishBy,
  });
  let observed = false;
  try {
    let invocation: EndpointInvocation;
    try {
      invocation = await endpoint.invoke(body, {
        deadline: deadlines.startBy,
        onRetry: (event) => ports.telemetry.retrying(`endpoint for ${group.policy.name}`, event),
        ...(run.signal ? { signal: run.signal } : {}),
      });
    } catch (error) {
      if (!(error instanceof PermanentError)) return { ...failAll(error), requested: true };
      const times = timesNow(ports.clock, deadlines);
      return writeAll((item) => refusedItemOutcome(item, error.message, endpoint.endpointName, size, times));
    }
    ports.telemetry.requestAnswered(group.policy.name, size, invocation);

    let read: ReturnType<typeof readSystemOneResponse>;
    try {
      read = readSystemOneResponse(invocation.body, group.policy, endpoint.endpointName);
    } catch (error) {
      return { ...failAll(error), requested: true };
    }
    const request = {
      endpointName: endpoint.endpointName,
      invocation,
      read,
      groupSize: size,
      ...(endpoint.lane !== undefined ? { lane: endpoint.lane } : {}),
    };
    const built = new Map(
      pending.map(({ item }) => [
        item,
        markAudit(
          decidedOutcome(
            item,
            applyPolicy(group.policy, item.facts, read.response.answers),
            request,
            timesNow(ports.clock, deadlines),
          ),
          group.policy,
        ),
      ]),
    );
    try {
      await archiveState(group.stateText, [...built.values()], ports, deadlines.finishBy);
    } catch (error) {
      // Nothing is written: the items come back and are decided again (the model's answer is
      // deterministic), so no reviewer meets an item whose whole state was lost.
      return { ...failAll(error), requested: true };
    }
    const done = await writeAll((item) => built.get(item) as Outcome);
    // Only now, with the live outcomes written, are the candidate's results recorded (on its own budget).
    observed = true;
    ports.shadow?.observe({
      policy: group.policy,
      stateText: group.stateText,
      live: { body, endpointName: endpoint.endpointName, read },
      items: pending.flatMap(({ item, at }) => {
        const result = done.results[at];
        return result?.status === "recorded" ? [{ item, outcome: result.outcome }] : [];
      }),
      finishBy: deadlines.finishBy,
      ...(begun !== undefined ? { begun } : {}),
    });
    return done;
  } finally {
    if (!observed) begun?.cancel();
  }
}

/**
 * Keeps the group's state in the archive when one of its outcomes goes to review (fallback or
 * audit) and the outcome's preview is not the whole state. One put per group: its items share
 * the state.
 */
async function archiveState(
  stateText: string,
  outcomes: readonly Outcome[],
  ports: Pick<GroupPorts, "states">,
  finishBy: Deadline,
): Promise<void> {
  const archive = ports.states;
  if (archive === undefined) return;
  const waiting = outcomes.find(
    (outcome) =>
      (outcome.status === "fallback" || outcome.audit !== undefined) &&
      outcome.state_sha256 !== undefined &&
      outcome.state_preview !== stateText,
  );
  if (waiting?.state_sha256 === undefined) return;
  await archive.put(waiting.state_sha256, stateText, { deadline: finishBy });
}

/**
 * Writes one outcome under the finish deadline, with the supersede marker its origin carried. An
 * outcome that already stands is a success (`duplicate`): it stays, unless the marker asked for it
 * to be superseded (`recorded`, `superseded` set); a different payload under its id is a
 * `duplicate` with `conflict` set (the sink recorded the conflict).
 *
 * @throws whatever the sink throws (transient errors after its retries, a refused write): the
 *   item is given back.
 */
export async function writeOutcome(
  outcome: Outcome,
  ports: Pick<GroupPorts, "outcomes" | "telemetry">,
  finishBy: Deadline,
  origin?: ItemOrigin,
): Promise<ItemResult> {
  const supersede = origin?.kind === "sqs" ? origin.supersede : undefined;
  const written = await ports.outcomes.record(outcome, {
    deadline: finishBy,
    onRetry: (event) => ports.telemetry.retrying(`outcome ${outcome.policy}/${outcome.id}`, event),
    ...(supersede !== undefined ? { supersede } : {}),
  });
  const { telemetry } = ports;
  if (written.recorded) {
    telemetry.outcomeWritten(written.outcome.policy, written.outcome.status);
    if (written.superseded !== undefined)
      telemetry.superseded?.(outcome.policy, outcome.id, written.superseded);
    return {
      status: "recorded",
      outcome: written.outcome,
      ...(written.superseded !== undefined ? { superseded: written.superseded } : {}),
    };
  }
  if (written.conflict === true) telemetry.conflict?.(outcome.policy, outcome.id, outcome.payload_sha256);
  else if (written.refused !== undefined)
    telemetry.supersedeRefused?.(outcome.policy, outcome.id, written.refused);
  telemetry.duplicate(outcome.policy, outcome.id);
  return {
    status: "duplicate",
    policy: outcome.policy,
    id: outcome.id,
    ...(written.existing !== undefined ? { existing: written.existing } : {}),
    ...(written.conflict === true ? { conflict: true } : {}),
    ...(written.refused !== undefined ? { refused: written.refused } : {}),
  };
}

/** A settled write as an item result: a write that threw gives its item back. */
export function settled(result: PromiseSettledResult<ItemResult> | undefined): ItemResult {
  if (result === undefined)
    return { status: "failed", reason: new Error("no result was produced for this item") };
  return result.status === "fulfilled" ? result.value : { status: "failed", reason: result.reason };
}

function timesNow(clock: Clock, deadlines: CallDeadlines): OutcomeTimes {
  return { now: clock.now(), batchStartedAt: deadlines.startedAt };
}
