import type { Lane } from "../../contract/lanes/lanes.js";
import { truncateText } from "../common/truncateText.js";
import type { EndpointInvocation } from "../endpoint/index.js";
import type { Outcome, OutcomeSource, OutcomeStatus, PayloadSummary } from "../outcomes/index.js";
import { REASON_CHARS, summarizeState } from "../outcomes/index.js";
import type { Policy, PolicyDecision } from "../policy/index.js";
import type { ReadResponse } from "./readSystemOneResponse.js";
import type { ItemOrigin, ParsedItem, RejectedItem } from "./types.js";

/** Code points kept of an event's `source` and `detail-type` in an outcome (they are producer-written). */
const EVENT_FIELD_CHARS = 256;

/** When an outcome is built, and when its batch started (epoch milliseconds). */
export interface OutcomeTimes {
  now: number;
  batchStartedAt: number;
}

/** The endpoint request an item was decided in. */
export interface GroupRequest {
  endpointName: string;
  invocation: EndpointInvocation;
  read: ReadResponse;
  groupSize: number;
  /** The lane the endpoint was asked in. Default: none recorded. */
  lane?: Lane;
}

/**
 * The outcome of an item the policy decided (any status `applyPolicy` returned, `rejected` included:
 * a rule's reject or a malformed answer keeps the answers and rules that led to it).
 */
export function decidedOutcome(
  item: ParsedItem,
  decision: PolicyDecision,
  request: GroupRequest,
  times: OutcomeTimes,
): Outcome {
  const { invocation, read } = request;
  const { usage } = read.response;
  return {
    ...base(item.policy.name, item.id, decision.status, times, sourceOf(item.origin, item.event)),
    ...(decision.reason !== undefined ? { reason: truncateText(decision.reason, REASON_CHARS) } : {}),
    answers: Object.fromEntries(
      Object.entries(decision.answers).map(([qid, answer]) => [qid, { ...answer }]),
    ),
    rules_fired: decision.rules_fired.map((rule) => ({ ...rule })),
    ...policyFields(item.policy),
    model: read.response.model,
    ...(read.response.model_sha256 !== undefined ? { model_sha256: read.response.model_sha256 } : {}),
    ...(read.response.adapter_build !== undefined ? { adapter_build: read.response.adapter_build } : {}),
    ...(read.promptSha256 !== undefined ? { prompt_sha256: read.promptSha256 } : {}),
    request: {
      endpoint: request.endpointName,
      ...(invocation.requestId !== undefined ? { request_id: invocation.requestId } : {}),
      group_size: request.groupSize,
      attempts: invocation.attempts,
      // The request's tokens on each of its items: an item's share is ÷ group_size (docs/cost.md).
      input_tokens: usage.input_tokens,
      ...(usage.evaluated_tokens !== undefined ? { evaluated_tokens: usage.evaluated_tokens } : {}),
      ...(usage.cached_tokens !== undefined ? { cached_tokens: usage.cached_tokens } : {}),
    },
    timings: {
      endpoint_ms: invocation.latencyMs,
      endpoint_total_ms: invocation.totalMs,
      ...commonTimings(item.origin, item.submittedAt, times),
    },
    ...(request.lane !== undefined ? { lane: request.lane } : {}),
    ...(item.submittedAt !== undefined ? { submitted_at: item.submittedAt } : {}),
    ...summarizeState(item.stateText),
    ...payloadFields(item.payload),
  };
}

/** The `rejected` outcome of an input that was invalid before any model call. */
export function rejectedItemOutcome(rejected: RejectedItem, times: OutcomeTimes): Outcome {
  return {
    ...base(rejected.policyName, rejected.id, "rejected", times, sourceOf(rejected.origin, rejected.event)),
    reason: truncateText(rejected.reason, REASON_CHARS),
    ...(rejected.reasonPath !== undefined ? { reason_path: rejected.reasonPath } : {}),
    rules_fired: [],
    ...(rejected.policy !== undefined ? policyFields(rejected.policy) : {}),
    timings: commonTimings(rejected.origin, rejected.submittedAt, times),
    ...(rejected.submittedAt !== undefined ? { submitted_at: rejected.submittedAt } : {}),
    ...(rejected.stateText !== undefined ? summarizeState(rejected.stateText) : {}),
    ...payloadFields(rejected.payload),
  };
}

/** The `rejected` outcome of a valid item whose request the endpoint refused for good (a 4xx from the model). */
export function refusedItemOutcome(
  item: ParsedItem,
  reason: string,
  endpointName: string,
  groupSize: number,
  times: OutcomeTimes,
): Outcome {
  return {
    ...base(item.policy.name, item.id, "rejected", times, sourceOf(item.origin, item.event)),
    reason: truncateText(reason, REASON_CHARS),
    rules_fired: [],
    ...policyFields(item.policy),
    request: { endpoint: endpointName, group_size: groupSize, attempts: 1 },
    timings: commonTimings(item.origin, item.submittedAt, times),
    ...(item.submittedAt !== undefined ? { submitted_at: item.submittedAt } : {}),
    ...summarizeState(item.stateText),
    ...payloadFields(item.payload),
  };
}

/** The work item's hash and, when kept, its text (what a redecide sends again). */
function payloadFields(payload: PayloadSummary | undefined): Partial<Outcome> {
  return payload === undefined ? {} : { ...payload };
}

function base(
  policy: string,
  id: string,
  status: OutcomeStatus,
  times: OutcomeTimes,
  source: OutcomeSource,
): Pick<Outcome, "policy" | "id" | "policy_status" | "status" | "source" | "created_at" | "updated_at"> {
  const at = new Date(times.now).toISOString();
  return { policy, id, policy_status: `${policy}#${status}`, status, source, created_at: at, updated_at: at };
}

function policyFields(policy: Policy): Pick<Outcome, "policy_version" | "policy_sha256"> {
  return { policy_version: policy.version, policy_sha256: policy.sha256 };
}

function sourceOf(
  origin: ItemOrigin,
  event: { source: string; detailType: string } | undefined,
): OutcomeSource {
  const eventFields =
    event !== undefined
      ? {
          event_source: truncateText(event.source, EVENT_FIELD_CHARS),
          event_detail_type: truncateText(event.detailType, EVENT_FIELD_CHARS),
        }
      : {};
  if (origin.kind === "file") return { kind: "file", line: origin.line, ...eventFields };
  return {
    kind: event === undefined ? "sqs" : "eventbridge",
    message_id: origin.messageId,
    receive_count: origin.receiveCount,
    ...(origin.job !== undefined ? { job_id: origin.job.jobId, line: origin.job.line } : {}),
    ...eventFields,
  };
}

function commonTimings(
  origin: ItemOrigin,
  submittedAt: string | undefined,
  times: OutcomeTimes,
): { batch_ms: number; queue_to_outcome_ms?: number } {
  const submitted = submittedAt === undefined ? Number.NaN : Date.parse(submittedAt);
  const start = Number.isFinite(submitted) ? submitted : origin.kind === "sqs" ? origin.sentAt : undefined;
  return {
    batch_ms: times.now - times.batchStartedAt,
    ...(start !== undefined ? { queue_to_outcome_ms: Math.max(0, times.now - start) } : {}),
  };
}
