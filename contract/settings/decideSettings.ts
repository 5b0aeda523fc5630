import { LaneSchema } from "../lanes/lanes.js";
import type { Setting } from "./Setting.js";
import { integerSetting, nonEmptyTextSetting, textSetting } from "./settingSchemas.js";

/**
 * The decide function's environment (`functions/decide/readDecideConfig.ts` reads it at cold start;
 * the CDK app's `DecideFunction` writes it, `maxConcurrentGroups` from the knob of that name).
 */
export const DECIDE_SETTINGS = {
  outcomesTable: {
    env: ["OUTCOMES_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the outcomes table's name",
  },
  endpointName: {
    env: ["ENDPOINT_NAME"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the SageMaker endpoint's name",
  },
  inferenceComponentName: {
    env: ["INFERENCE_COMPONENT_NAME"],
    schema: textSetting,
    default: { value: "" },
    doc: "the inference component of this lane on the endpoint (`InferenceComponentName` of every call): the CDK app sets it with `layout=lanes-from-zero`, where each lane has a component of its own. Empty: none (the endpoint's variant serves the call)",
  },
  lane: {
    env: ["LANE"],
    schema: LaneSchema,
    default: { value: "interactive" },
    doc: "the lane this function drains (`interactive` or `bulk`): every endpoint call says it in `CustomAttributes` (`lane=<lane>`), and the adapter serves interactive calls first. The CDK app deploys one decide function per lane",
  },
  policyDir: {
    env: ["POLICY_DIR"],
    schema: textSetting,
    default: { text: "the policies bundled beside the handler" },
    doc: "the folder of `*.yaml` policies",
  },
  deadlineMarginMs: {
    env: ["DEADLINE_MARGIN_MS"],
    schema: integerSetting(0, 900_000),
    default: { value: 10_000 },
    doc: "no group starts later than the invocation's remaining time less this, in milliseconds",
  },
  maxConcurrentGroups: {
    env: ["MAX_CONCURRENT_GROUPS"],
    schema: integerSetting(1, 64),
    default: { value: 4 },
    doc: "endpoint requests (groups) one invocation has in flight at once",
  },
  maxAttempts: {
    env: ["MAX_ATTEMPTS"],
    schema: integerSetting(1, 20),
    default: { value: 6 },
    doc: "attempts per endpoint request or outcome write, the first included",
  },
  retryBaseDelayMs: {
    env: ["RETRY_BASE_DELAY_MS"],
    schema: integerSetting(1, 60_000),
    default: { value: 100 },
    doc: "the first backoff's cap, in milliseconds",
  },
  retryMaxDelayMs: {
    env: ["RETRY_MAX_DELAY_MS"],
    schema: integerSetting(1, 300_000),
    default: { value: 5000 },
    doc: "the largest backoff cap, in milliseconds",
  },
  unknownPolicyWaitSeconds: {
    env: ["UNKNOWN_POLICY_WAIT_SECONDS"],
    schema: integerSetting(0, 86_400),
    default: { value: 0 },
    doc: "how long an item naming a policy this function has not loaded goes back to the queue (a rollout still under way), from its message's send time, before it is rejected; 0 rejects it at once. The CDK app sets 900",
  },
  jobsTable: {
    env: ["JOBS_TABLE"],
    schema: textSetting,
    default: { value: "" },
    doc: "the jobs table: an outcome of a job's line is counted there in the same transaction (empty: no jobs)",
  },
  maxReceiveCount: {
    env: ["MAX_RECEIVE_COUNT"],
    schema: integerSetting(0, 1000),
    default: { value: 0 },
    doc: "the work queue's maxReceiveCount: a job's line whose last receive fails is counted as dead-lettered (0: not counted)",
  },
  stateArchiveBucket: {
    env: ["STATE_ARCHIVE_BUCKET"],
    schema: textSetting,
    default: { text: "none: a reviewer sees the outcome's preview of a long state" },
    doc: "the S3 bucket where the whole state of an item sent to review (fallback or audit) is kept when it is longer than the outcome's preview, as `<prefix><sha256>.json`; the item is given back when it cannot be written",
  },
  stateArchivePrefix: {
    env: ["STATE_ARCHIVE_PREFIX"],
    schema: textSetting,
    default: { value: "review-states/" },
    doc: "the key prefix of those states (the CDK app's lifecycle rule expires objects under it)",
  },
  shadowEndpointName: {
    env: ["SHADOW_ENDPOINT_NAME"],
    schema: textSetting,
    default: { value: "" },
    doc: "the candidate endpoint a policy's `shadow` section asks (`endpoint: candidate`) for its sampled share of items, after their live outcomes are written, in the bulk lane and without retries; its answers become shadow records (docs/changing-models.md). Empty: none (such a section's records say the candidate is absent). The CDK app sets it with the knob `shadowModelDataUrl`",
  },
  shadowTimeoutMs: {
    env: ["SHADOW_TIMEOUT_MS"],
    schema: integerSetting(100, 120_000),
    default: { value: 5000 },
    doc: "how long the candidate may take for one group, in milliseconds, waiting for a place included (never past the invocation's write deadline); a candidate that takes longer gets a shadow record with its failure",
  },
  shadowMaxConcurrent: {
    env: ["SHADOW_MAX_CONCURRENT"],
    schema: integerSetting(1, 16),
    default: { value: 2 },
    doc: "candidate calls one function instance has in flight at once (its own bound: the live calls' concurrency and retry budget are not touched)",
  },
} as const satisfies Record<string, Setting<unknown>>;
