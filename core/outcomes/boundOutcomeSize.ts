import type { Outcome, OutcomeAnswer } from "../../contract/outcome/OutcomeSchema.js";
import {
  MAX_OUTCOME_BYTES,
  REASON_CHARS,
  STATE_PREVIEW_CHARS,
  TRUNCATED_DISTRIBUTION_LABELS,
} from "../../contract/outcome/outcomeLimits.js";
import { truncateText } from "../common/truncateText.js";

/** Code points kept of each segment of `reason_path` (a fact or state key can be 450 KB). */
export const REASON_PATH_SEGMENT_CHARS = 200;
/** Segments kept of `reason_path` (the first ones: where the problem starts). */
export const REASON_PATH_SEGMENTS = 32;
/** Code points kept of a short text field (model name, endpoint, event source, policy version, a rule's `set` value). */
export const SHORT_TEXT_CHARS = 256;
/** Code points kept of an S3 key in `source.key` (S3 allows 1024 bytes). */
export const SOURCE_KEY_CHARS = 1024;
/**
 * JSON bytes above which an outcome is not written as it is but replaced by a minimal `rejected`
 * outcome ({@link minimalRejectedOutcome}). DynamoDB refuses items over 400 KB counted as
 * attribute names plus values; a map or list adds a few bytes per element and a number up to 21
 * bytes, so the JSON size is kept well below it.
 */
export const TABLE_ITEM_GUARD_BYTES = 300 * 1024;

/** The distribution sizes tried in turn, most probable labels first (0: the answer's probability only). */
const DISTRIBUTION_STEPS = [TRUNCATED_DISTRIBUTION_LABELS, 4, 1, 0];

/**
 * An outcome that fits the table by construction:
 * 1. every text field a producer or a policy can make long is cut by code points (never inside a
 *    surrogate pair): `reason` and each rule's reason to {@link REASON_CHARS}, each `reason_path`
 *    segment to {@link REASON_PATH_SEGMENT_CHARS} (and at most {@link REASON_PATH_SEGMENTS}
 *    segments), `state_preview` to {@link STATE_PREVIEW_CHARS}, the source's key and the short
 *    fields to {@link SOURCE_KEY_CHARS} / {@link SHORT_TEXT_CHARS};
 * 2. when its JSON is still over `maxBytes` (default {@link MAX_OUTCOME_BYTES}), its distributions
 *    keep only their most probable labels (and the answer's), fewer at each step (16, 4, 1, none),
 *    marked `distribution_truncated` — the answers and their probabilities always stay;
 * 3. when it is over {@link TABLE_ITEM_GUARD_BYTES}, its `history` and then its kept `work_item`
 *    are left out;
 * 4. when even that is over {@link TABLE_ITEM_GUARD_BYTES} (it cannot be with the policy schema's
 *    limits, but nothing here relies on them), a minimal `rejected` outcome is returned instead
 *    ({@link minimalRejectedOutcome}).
 *
 * The partition and sort keys (`policy`, `id`) are never cut: the work item schema bounds them.
 */
export function boundOutcomeSize(outcome: Outcome, maxBytes: number = MAX_OUTCOME_BYTES): Outcome {
  const capped = capTextFields(outcome);
  let bounded = capped;
  if (capped.answers !== undefined) {
    const answers = capped.answers;
    for (const labels of DISTRIBUTION_STEPS) {
      if (jsonBytes(bounded) <= maxBytes) break;
      bounded = { ...capped, answers: mapValues(answers, (answer) => cutDistribution(answer, labels)) };
    }
  }
  // Past the guard, what a redecide needs goes before the answers do: the history, then the kept text.
  if (jsonBytes(bounded) > TABLE_ITEM_GUARD_BYTES && bounded.history !== undefined) {
    const { history: _history, ...rest } = bounded;
    bounded = rest;
  }
  if (jsonBytes(bounded) > TABLE_ITEM_GUARD_BYTES && bounded.work_item !== undefined) {
    const { work_item: _text, ...rest } = bounded;
    bounded = rest;
  }
  const bytes = jsonBytes(bounded);
  if (bytes <= TABLE_ITEM_GUARD_BYTES) return bounded;
  return minimalRejectedOutcome(
    outcome,
    `the outcome (${outcome.status}) is ${bytes} bytes even with its distributions cut, more than the ${TABLE_ITEM_GUARD_BYTES} an outcome may take; only its identity and hashes are kept`,
  );
}

/**
 * The smallest outcome that still says what happened: `rejected` with the reason, the item's key,
 * policy version and hash, the state's hash and size, and where the record came from. What the
 * store writes when the table refuses an outcome for good (too large, invalid attribute) instead
 * of failing the record, so that the item ends with a reason rather than in the dead-letter queue.
 */
export function minimalRejectedOutcome(outcome: Outcome, reason: string): Outcome {
  const source = capSource(outcome.source);
  return {
    policy: outcome.policy,
    id: outcome.id,
    policy_status: `${outcome.policy}#rejected`,
    status: "rejected",
    reason: truncateText(reason, REASON_CHARS),
    rules_fired: [],
    source: {
      kind: source.kind,
      ...pick(source, ["message_id", "receive_count", "bucket", "key", "version_id", "line"]),
    },
    ...(outcome.policy_version !== undefined ? { policy_version: capShort(outcome.policy_version) } : {}),
    ...(outcome.policy_sha256 !== undefined ? { policy_sha256: capShort(outcome.policy_sha256) } : {}),
    ...(outcome.state_sha256 !== undefined ? { state_sha256: capShort(outcome.state_sha256) } : {}),
    ...(outcome.state_bytes !== undefined ? { state_bytes: outcome.state_bytes } : {}),
    ...(outcome.submitted_at !== undefined ? { submitted_at: capShort(outcome.submitted_at) } : {}),
    ...(outcome.payload_sha256 !== undefined ? { payload_sha256: capShort(outcome.payload_sha256) } : {}),
    ...(outcome.work_item_bytes !== undefined ? { work_item_bytes: outcome.work_item_bytes } : {}),
    created_at: outcome.created_at,
    updated_at: outcome.updated_at,
  };
}

/** UTF-8 bytes of the outcome's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

function capTextFields(outcome: Outcome): Outcome {
  const capped: Outcome = { ...outcome, source: capSource(outcome.source) };
  if (outcome.reason !== undefined) capped.reason = truncateText(outcome.reason, REASON_CHARS);
  if (outcome.reason_path !== undefined) {
    capped.reason_path = outcome.reason_path
      .slice(0, REASON_PATH_SEGMENTS)
      .map((segment) =>
        typeof segment === "string" ? truncateText(segment, REASON_PATH_SEGMENT_CHARS) : segment,
      );
  }
  capped.rules_fired = outcome.rules_fired.map((rule) => ({
    name: truncateText(rule.name, SHORT_TEXT_CHARS),
    effect: truncateText(rule.effect, SHORT_TEXT_CHARS),
    ...(rule.reason !== undefined ? { reason: truncateText(rule.reason, REASON_CHARS) } : {}),
    ...(rule.set !== undefined ? { set: mapValues(rule.set, capShort) } : {}),
  }));
  if (outcome.state_preview !== undefined) {
    capped.state_preview = truncateText(outcome.state_preview, STATE_PREVIEW_CHARS);
  }
  if (outcome.model !== undefined) capped.model = truncateText(outcome.model, SHORT_TEXT_CHARS);
  if (outcome.policy_version !== undefined) capped.policy_version = capShort(outcome.policy_version);
  if (outcome.request !== undefined) {
    capped.request = {
      ...outcome.request,
      endpoint: truncateText(outcome.request.endpoint, SHORT_TEXT_CHARS),
      ...(outcome.request.request_id !== undefined
        ? { request_id: truncateText(outcome.request.request_id, SHORT_TEXT_CHARS) }
        : {}),
    };
  }
  return capped;
}

function capSource(source: Outcome["source"]): Outcome["source"] {
  const capped = { ...source };
  for (const field of ["message_id", "event_source", "event_detail_type", "bucket", "version_id"] as const) {
    const value = capped[field];
    if (value !== undefined) capped[field] = truncateText(value, SHORT_TEXT_CHARS);
  }
  if (capped.key !== undefined) capped.key = truncateText(capped.key, SOURCE_KEY_CHARS);
  return capped;
}

function cutDistribution(answer: OutcomeAnswer, labels: number): OutcomeAnswer {
  const entries = Object.entries(answer.distribution);
  if (entries.length <= labels) return answer;
  const kept = entries.sort((a, b) => b[1] - a[1]).slice(0, labels);
  const label = String(answer.answer);
  const own = answer.distribution[label];
  if (labels > 0 && own !== undefined && !kept.some(([key]) => key === label)) kept.push([label, own]);
  return { ...answer, distribution: Object.fromEntries(kept), distribution_truncated: true };
}

function capShort<T extends string | number | boolean>(value: T): T {
  return (typeof value === "string" ? truncateText(value, SHORT_TEXT_CHARS) : value) as T;
}

function mapValues<V, W>(record: Readonly<Record<string, V>>, map: (value: V) => W): Record<string, W> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}
