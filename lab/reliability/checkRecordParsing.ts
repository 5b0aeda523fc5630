/**
 * The decide function's record parsing under arbitrary and adversarial bodies: a property run with
 * fast-check, sized by the caller (a few hundred cases in `npm test`, 10,000 in the chaos command).
 */
import fc from "fast-check";
import { parseJsonText, systemOneRequestSchema } from "../../contract/wire/index.js";
import { findReservedToken } from "../../contract/wire/reservedText.js";
import { MAX_OUTCOME_BYTES, OutcomeSchema } from "../../core/outcomes/index.js";
import { rejectedItemOutcome } from "../../core/pipeline/buildOutcome.js";
import { buildSystemOneBody, parseWorkItem, type ReadWorkItem } from "../../core/pipeline/index.js";
import { checkFacts, type PolicySet } from "../../core/policy/index.js";
import { parseRecord } from "../../functions/decide/index.js";
import { CHAT_CONTROL_TEXTS } from "./adversarialValues.js";
import { type RecordBody, recordBodyArbitrary } from "./recordBodies.js";

/** DynamoDB's key limits, in UTF-8 bytes: partition key 2048, sort key 1024. */
const PARTITION_KEY_BYTES = 2048;
/** In a `u` regular expression a surrogate matches only when unpaired (the ES2023 lib lacks `isWellFormed`). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const SORT_KEY_BYTES = 1024;

/** Options of {@link checkRecordParsing}. */
export interface CheckRecordParsingOptions {
  /** Cases to generate. Default 500. */
  numRuns?: number;
  /** fast-check seed, for a run that can be repeated. Default: fast-check's (random, printed on failure). */
  seed?: number;
  /** More bodies to check besides the generated ones (a chaos run's poison messages). Default none. */
  bodies?: fc.Arbitrary<RecordBody>;
}

/** What a run checked. */
export interface RecordParsingReport {
  cases: number;
  items: number;
  rejected: number;
}

const systemOne = systemOneRequestSchema({ findReservedText: findReservedToken });

/**
 * Why `parsed` breaks the contract of record parsing for `body`, or `undefined` when it holds:
 * an item is complete (a loaded policy, an id that fits a sort key, facts that pass the policy, a
 * state cut from the body that makes a valid System One request the adapter will either accept or
 * refuse for its chat-control text); a rejection has a reason and makes a complete `rejected`
 * outcome that DynamoDB can store (keys within its limits and well-formed Unicode).
 */
export function recordParsingProblem(
  generated: RecordBody,
  parsed: ReadWorkItem,
  policies: PolicySet,
): string | undefined {
  const { body } = generated;
  if (parsed.kind === "item") {
    if (generated.mustReject !== undefined)
      return `accepted a body that must be rejected (${generated.mustReject})`;
    if (policies.get(parsed.policy.name) !== parsed.policy) return "an item of a policy that is not loaded";
    const keyProblem = keysProblem(parsed.policy.name, parsed.id);
    if (keyProblem !== undefined) return `item ${keyProblem}`;
    if (!checkFacts(parsed.policy, parsed.facts).ok) return "an item whose facts do not pass its policy";
    if (parsed.event === undefined && !body.includes(parsed.stateText))
      return "a state text not cut from the body";
    if (parsed.renderedState === "") return "an empty rendered state";
    const request = buildSystemOneBody(parsed.policy, parsed.stateText);
    let value: unknown;
    try {
      parseJsonText(request);
      value = JSON.parse(request);
    } catch (error) {
      return `the System One body is not valid JSON: ${String(error)}`;
    }
    const validated = systemOne.safeParse(value);
    if (!validated.success) {
      // The adapter refuses the request (400): the pipeline writes a `rejected` outcome. That is
      // the right end only for text the model must never read.
      const reserved = validated.error.issues.every((issue) => /reserved chat-control/.test(issue.message));
      if (!reserved)
        return `the adapter would refuse the item's request: ${validated.error.message.slice(0, 300)}`;
    } else if (CHAT_CONTROL_TEXTS.some((token) => parsed.stateText.includes(token))) {
      return "chat-control text in the state passes the adapter's schema";
    }
    return undefined;
  }
  if (typeof parsed.reason !== "string" || parsed.reason.trim() === "") return "a rejection without a reason";
  const keyProblem = keysProblem(parsed.policyName, parsed.id);
  if (keyProblem !== undefined) return `rejection ${keyProblem}`;
  const outcome = rejectedItemOutcome(parsed, {
    now: Date.UTC(2026, 0, 1),
    batchStartedAt: Date.UTC(2026, 0, 1),
  });
  const valid = OutcomeSchema.safeParse(outcome);
  if (!valid.success) return `the rejected outcome is incomplete: ${valid.error.message.slice(0, 300)}`;
  if (outcome.status !== "rejected" || outcome.reason === undefined)
    return "a rejection whose outcome is not rejected";
  const bytes = Buffer.byteLength(JSON.stringify(outcome));
  if (bytes > MAX_OUTCOME_BYTES) return `a rejected outcome of ${bytes} bytes (bound ${MAX_OUTCOME_BYTES})`;
  if (LONE_SURROGATE.test(outcome.policy_status) || outcome.policy_status.length === 0)
    return "a bad review-index key";
  if (Buffer.byteLength(outcome.policy_status) > PARTITION_KEY_BYTES)
    return "a review-index key over 2048 bytes";
  return undefined;
}

function keysProblem(policy: string, id: string): string | undefined {
  if (typeof id !== "string" || id === "") return "without an id";
  if (typeof policy !== "string" || policy === "") return "without a policy";
  if (LONE_SURROGATE.test(id))
    return `with an id that is not well-formed Unicode (${JSON.stringify(id.slice(0, 40))})`;
  if (LONE_SURROGATE.test(policy)) return `with a policy name that is not well-formed Unicode`;
  if (Buffer.byteLength(id) > SORT_KEY_BYTES)
    return `with an id of ${Buffer.byteLength(id)} bytes (DynamoDB sort keys: 1024)`;
  if (Buffer.byteLength(policy) > PARTITION_KEY_BYTES)
    return `with a policy name of ${Buffer.byteLength(policy)} bytes (DynamoDB partition keys: 2048)`;
  return undefined;
}

/**
 * Runs the record-parsing property over `numRuns` generated bodies: an SQS record read by
 * `parseRecord` and `parseWorkItem`, as the decide function reads it, never throws, and
 * every result satisfies {@link recordParsingProblem}.
 *
 * @throws the fast-check failure (counterexample, seed and path to replay it) when a case breaks it
 * @example await checkRecordParsing(await loadPolicies("policies"), { numRuns: 10_000 })
 */
export function checkRecordParsing(
  policies: PolicySet,
  options: CheckRecordParsingOptions = {},
): RecordParsingReport {
  const report: RecordParsingReport = { cases: 0, items: 0, rejected: 0 };
  const bodies =
    options.bodies === undefined ? recordBodyArbitrary() : fc.oneof(recordBodyArbitrary(), options.bodies);
  let index = 0;
  fc.assert(
    fc.property(bodies, (generated) => {
      index += 1;
      const record = sqsRecordOf(generated.body, `message-${index}`);
      const parsed = parseWorkItem(parseRecord(record), 0, policies);
      const problem = recordParsingProblem(generated, parsed, policies);
      if (problem !== undefined) throw new Error(`${problem} [${generated.origin}]`);
      report.cases += 1;
      if (parsed.kind === "item") report.items += 1;
      else report.rejected += 1;
    }),
    { numRuns: options.numRuns ?? 500, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
  );
  return report;
}

function sqsRecordOf(body: string, messageId: string): Parameters<typeof parseRecord>[0] {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: String(Date.UTC(2026, 0, 1)),
      SenderId: "AIDAEXAMPLE",
      ApproximateFirstReceiveTimestamp: String(Date.UTC(2026, 0, 1)),
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:work",
    awsRegion: "us-east-1",
  };
}
