import { loadavg } from "node:os";
import type { SentMessage } from "../../chaos/checkChaosInvariant.js";
import { scanOutcomeRows } from "../../chaos/readChaosEvidence.js";
import { type CpuByPart, measureCpu } from "../pipeline/measureCpu.js";
import { type AloneRun, adapterAlone } from "./adapterAlone.js";
import type { BacklogRig } from "./BacklogRig.js";
import type { BacklogItem } from "./buildBacklogItems.js";
import { ADAPTER_CLIENTS } from "./constants.js";
import { distinctRequests } from "./distinctRequests.js";
import { drainThrough } from "./drainThrough.js";
import type { BacklogWorkload } from "./prepareBacklogWorkload.js";
import { profileEndpointCalls } from "./profileEndpointCalls.js";
import { profileInvocations } from "./profileInvocations.js";
import type { BacklogRound } from "./summarizeBacklog.js";
import { addAnswerUsage, noTokenUsage, type TokenUsage } from "./tokenUsage.js";
import type { BacklogBenchReport } from "./types.js";

/** What the rounds have measured so far, added to round by round. */
export interface RoundTotals {
  statuses: number[];
  sent: SentMessage[];
  deliveries: number;
  alone: AloneRun[];
  rounds: BacklogBenchReport["rounds"];
  measuredRounds: BacklogRound[];
  aloneCpu: CpuByPart;
  pipelineCpu: CpuByPart;
}

/** The totals before the first round: nothing measured, no CPU seconds. */
export function emptyRoundTotals(): RoundTotals {
  const zero = (): CpuByPart => ({ wall_s: 0 });
  return {
    statuses: [],
    sent: [],
    deliveries: 0,
    alone: [],
    rounds: [],
    measuredRounds: [],
    aloneCpu: zero(),
    pipelineCpu: zero(),
  };
}

/**
 * One round: the adapter alone and the pipeline on the round's backlog, in turn first (the alone
 * run first in even rounds), then the decided items counted from the table; adds it all to `totals`.
 */
export async function runBacklogRound(
  rig: BacklogRig,
  workload: BacklogWorkload,
  index: number,
  totals: RoundTotals,
): Promise<void> {
  const { stack, handlers, parts, calls, policies, setup } = rig;
  const { roundCount, instances, stallMs, functionTimeoutMs, log } = setup;
  const backlog = workload.roundItems[index] as BacklogItem[];
  const aloneFirst = index % 2 === 0;
  const measureAlone = async () => {
    log(
      `round ${index + 1}/${roundCount}: the adapter alone, ${distinctRequests(backlog)} requests, ${ADAPTER_CLIENTS} clients`,
    );
    const measured = await measureCpu(parts, () => adapterAlone(stack.adapterUrl, policies, backlog));
    totals.aloneCpu = addCpu(totals.aloneCpu, { wall_s: measured.wallS, ...measured.cpu });
    calls.length = 0;
    return measured.value;
  };
  const before = aloneFirst ? await measureAlone() : undefined;
  log(
    `round ${index + 1}/${roundCount}: the pipeline, ${backlog.length} items on the queue at once, ${instances} instances`,
  );
  const offset = workload.items.indexOf(backlog[0] as BacklogItem);
  const piped = await measureCpu(parts, () =>
    drainThrough(stack, handlers, backlog, { stallMs, functionTimeoutMs }, log),
  );
  totals.pipelineCpu = addCpu(totals.pipelineCpu, { wall_s: piped.wallS, ...piped.cpu });
  const endpoint = profileEndpointCalls(calls, piped.value.startedMs, piped.value.lastEndMs);
  const functions = profileInvocations(
    piped.value.invocations,
    piped.value.unheldMs,
    piped.value.startedMs,
    piped.value.lastEndMs,
  );
  totals.statuses.push(...calls.map((call) => call.status));
  const pipelineTokens = noTokenUsage();
  for (const call of calls) if (call.status === 200) addAnswerUsage(pipelineTokens, call.body ?? "");
  calls.length = 0;
  totals.sent.push(...piped.value.sent.map((message) => ({ ...message, item: message.item + offset })));
  totals.deliveries += piped.value.deliveries;
  const aloneRun = before ?? (await measureAlone());
  totals.alone.push(aloneRun);
  const decided = (await scanOutcomeRows(stack.clients.dynamodb, stack.table)).filter(
    (row) => String(row.id).startsWith(`backlog-r${index}-`) && row.status !== "rejected",
  ).length;
  const drainS = piped.value.drainS;
  totals.measuredRounds.push({
    items: backlog.length,
    decided,
    drainS,
    aloneDecisionsPerS: aloneRun.decisionsPerS,
  });
  const rate = decided / drainS;
  totals.rounds.push({
    items: backlog.length,
    order: aloneFirst ? "alone first" : "pipeline first",
    drain_s: round(drainS),
    pipeline_decisions_per_s: round(rate),
    adapter_alone_decisions_per_s: round(aloneRun.decisionsPerS),
    ratio: round(rate / aloneRun.decisionsPerS),
    endpoint,
    functions,
    tokens: { pipeline: pipelineTokens, adapter_alone: aloneRun.tokens },
  });
  log(
    `round ${index + 1}/${roundCount}: pipeline ${round(rate)}/s, alone ${round(aloneRun.decisionsPerS)}/s, ratio ${round(rate / aloneRun.decisionsPerS)}; ` +
      `endpoint busy ${endpoint.busy_share} of the drain, ${endpoint.mean_in_flight} calls in flight on average; ` +
      `functions busy ${functions.busy_share}, queue held with no invocation ${functions.unheld_s} s; ` +
      `tokens evaluated / reused: pipeline ${tokensOf(pipelineTokens)}, alone ${tokensOf(aloneRun.tokens)}; load average ${fmt(loadavg())}`,
  );
}

/** Sums two phases' CPU seconds part by part (a part unmeasured in either stays unmeasured). */
function addCpu(a: CpuByPart, b: CpuByPart): CpuByPart {
  const sum: CpuByPart = { wall_s: round((a.wall_s ?? 0) + (b.wall_s ?? 0)) };
  for (const part of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (part === "wall_s") continue;
    const x = a[part];
    const y = b[part];
    sum[part] = x === null || y === null ? null : round((x ?? 0) + (y ?? 0));
  }
  return sum;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function tokensOf(usage: TokenUsage): string {
  return `${usage.evaluated} / ${usage.cached} in ${usage.answers} answers`;
}

function fmt(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(" ");
}
