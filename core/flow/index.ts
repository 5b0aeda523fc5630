/**
 * Flow control from the queue to the endpoint: busy is not failed.
 *
 * This part imports only `common/`: the endpoint's client takes its limiter, and the decide
 * function tells the re-queue which failures mean "busy".
 *
 * A backlog is the normal case (a batch file lands at once, an incident storm), and an endpoint
 * at capacity answers 503 (the adapter, as a SageMaker `ModelError` with `OriginalStatusCode`
 * 503), 429 or throttling. Three units keep such answers from turning into a retry storm and from
 * moving valid items to the DLQ:
 *
 * 1. {@link AdaptiveConcurrencyLimiter}, one per function instance: calls to the endpoint take a
 *    permit; the limit rises by one per round of successes and halves on an overload answer
 *    (AIMD, once per episode), and new calls pause for the answer's Retry-After. The instance
 *    then sends roughly what the endpoint serves. It starts at 1 and climbs back into a level
 *    that was refused slowly, so instances sharing the endpoint avoid most refusals. It bounds
 *    calls *within* an instance; the event source's maximum concurrency bounds instances (infra
 *    derives it from what the endpoint admits at minimum capacity). With it,
 *    {@link CallLatencyEstimate}: no call starts that its deadline would abort before the
 *    endpoint's usual answer time (work thrown away on the bottleneck).
 * 2. `RetryBudget` (in `common/`, beside the one `RetryPolicy` that takes it), one per function instance: the AWS SDK's
 *    standard-mode retry quota (retries cost tokens, successes refill), with full jitter and
 *    Retry-After honoured. Under a lasting overload retries stop, so the endpoint sees the calls
 *    the work needs, not that many times over.
 * 3. {@link requeueBusyRecords} with {@link BusyRecordRequeuer}: a record that failed only for
 *    capacity (the endpoint's `isBusyFailure`, which the caller passes in: overload after the budgeted retries, no permit before the
 *    deadline, its group never started before the deadline) is re-queued as a delayed copy
 *    (`SendMessage` with `DelaySeconds`, jittered, ≥ Retry-After) and reported as done, so the
 *    event source deletes the original.
 *
 * Why re-queue rather than give the record back with a longer visibility
 * (`ChangeMessageVisibility` + `ReportBatchItemFailures`): SQS counts every *receive* in
 * `ApproximateReceiveCount`, and the redrive policy moves a message to the DLQ after
 * `maxReceiveCount` receives, whatever the reason they failed. A longer visibility only spaces the
 * receives out; a backlog that outlasts five of them still dead-letters valid items. A copy starts
 * at receive count 0, so the count — and the DLQ — stays for real failures (resets, 5xx other than
 * capacity, DynamoDB down, invalid answers), which are given back exactly as before. The cost:
 * a copy is a new message id, so the copy carries its lineage (`decisions.first_message_id` and
 * the first send time, {@link REQUEUE_ATTRIBUTES}) and the outcome names the first message; and if
 * an invocation dies after sending a copy but before the original is deleted, both exist — the
 * outcome write is conditional on the item's key, so the second to arrive finds the outcome and
 * ends as a `duplicate`, never a second outcome. The function needs `sqs:SendMessage` and
 * `sqs:GetQueueUrl` on its own queue.
 */
export {
  AdaptiveConcurrencyLimiter,
  type AdaptiveConcurrencyLimiterOptions,
  type LimiterStats,
  type Permit,
} from "./AdaptiveConcurrencyLimiter.js";
export { AimdLimit, type AimdLimitOptions, type CallSignal } from "./AimdLimit.js";
export {
  BusyRecordRequeuer,
  type BusyRecordRequeuerOptions,
  type RequeuedRecord,
  RequeueError,
} from "./BusyRecordRequeuer.js";
export { CallLatencyEstimate, type CallLatencyEstimateOptions } from "./CallLatencyEstimate.js";
export { REQUEUE_ATTRIBUTES, type RequeueLineage, readRequeueLineage } from "./requeueAttributes.js";
export { type RequeueBusyOptions, requeueBusyRecords } from "./requeueBusyRecords.js";
