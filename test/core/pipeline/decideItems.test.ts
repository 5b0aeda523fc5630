/**
 * The pipeline core with in-memory ports: grouping, deadlines, transient and permanent failures,
 * duplicates, rule precedence. No model, no emulator, no network.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ConfigurationError,
  DeadlineExceededError,
  RetriesExhaustedError,
  UnknownPolicyError,
} from "../../../core/common/errors.js";
import { EndpointConfigurationError, PermanentEndpointError } from "../../../core/endpoint/index.js";
import { TransientOutcomeStoreError } from "../../../core/outcomes/index.js";
import {
  type DecideItemsOptions,
  decideItems,
  type ItemResult,
  type WorkItemInput,
} from "../../../core/pipeline/index.js";
import { type Policy, PolicySet, parsePolicy } from "../../../core/policy/index.js";
import { FakeClock } from "../../support/FakeClock.js";
import { policyText } from "../policy/fabricate.js";
import { confidentAnswer, MemoryEndpoint, MemorySink, RecordingTelemetry } from "./memoryPorts.js";

const FACTS_AND_RULES = `facts:
  tier:
    type: string
    enum: [free, enterprise]
  hold:
    type: boolean
    default: false
rules:
  - name: hold_to_legal
    when: facts.hold
    set: {route: legal}
  - name: enterprise_review
    when: has(facts.tier) && facts.tier == "enterprise"
    review: Enterprise tickets are checked by a person.
  - name: no_free_legal
    when: has(facts.tier) && facts.tier == "free" && answers.route == "legal"
    reject: Free-tier legal requests are not handled here.
`;

const routing: Policy = parsePolicy(policyText(FACTS_AND_RULES), "test-policy.yaml");
const other: Policy = parsePolicy(
  policyText().replace("name: test-policy", "name: other-policy"),
  "other-policy.yaml",
);
const policies = new PolicySet([routing, other]);

const item = (id: string, state: unknown, facts: object = {}, policy = "test-policy") =>
  JSON.stringify({ id, policy, state, facts });

let messages = 0;
const sqs = (...bodies: string[]): WorkItemInput[] =>
  bodies.map((body) => {
    messages += 1;
    return { body, origin: { kind: "sqs", messageId: `m-${messages}`, receiveCount: 1 } };
  });

/** The ports and a call of the core over them, with settings a test may change. */
function setUp(answer: (body: string) => string = () => confidentAnswer(routing)) {
  const endpoint = new MemoryEndpoint(answer);
  const outcomes = new MemorySink();
  const telemetry = new RecordingTelemetry();
  const clock = new FakeClock();
  const decide = (inputs: WorkItemInput[], options: Partial<DecideItemsOptions> = {}) =>
    decideItems(
      inputs,
      { endpoint, outcomes, telemetry, clock },
      { policies, remainingMs: 60_000, deadlineMarginMs: 10_000, maxConcurrentGroups: 4, ...options },
    );
  return { endpoint, outcomes, telemetry, clock, decide };
}

const statuses = (results: ItemResult[]) =>
  results.map((result) =>
    result.status === "recorded" ? `recorded:${result.outcome.status}` : result.status,
  );

describe("decideItems (the pipeline core)", () => {
  describe("grouping", () => {
    it("asks once for items of one policy whose states render alike, and keeps the state as written", async () => {
      const { endpoint, decide } = setUp();

      const { results, groups, requests } = await decide(
        sqs(
          item("a", { x: 1 }),
          '{"id": "b", "policy": "test-policy", "state": {"x":1}}',
          '{"id": "c", "policy": "test-policy", "state": {"x": 1.0}}',
          item("d", { x: 1 }, {}, "other-policy"),
        ),
      );

      assert.deepEqual(statuses(results), Array(4).fill("recorded:decided"));
      assert.equal(groups, 3);
      assert.equal(requests, 3);
      assert.equal(endpoint.bodies.length, 3, "a+b share a request; 1.0 and the other policy do not");
      assert.ok(endpoint.bodies[1]?.startsWith('{"state": {"x": 1.0}, "questions": '), endpoint.bodies[1]);
      const sizes = results.map((result) =>
        result.status === "recorded" ? result.outcome.request?.group_size : undefined,
      );
      assert.deepEqual(sizes, [2, 2, 1, 1]);
      const [a, b] = results;
      assert.ok(a?.status === "recorded" && b?.status === "recorded");
      assert.equal(a.outcome.request?.request_id, b.outcome.request?.request_id);
    });

    it("returns one result per input in input order, rejections of unreadable inputs among them", async () => {
      const { outcomes, decide } = setUp();
      const inputs = sqs(item("a", "one"), "{not json", item("b", 42), item("c", "two"));

      const { results } = await decide(inputs);

      assert.deepEqual(statuses(results), [
        "recorded:decided",
        "recorded:rejected",
        "recorded:rejected",
        "recorded:decided",
      ]);
      const unparsed = outcomes.get(
        "_unparsed",
        inputs[1]?.origin.kind === "sqs" ? inputs[1].origin.messageId : "",
      );
      assert.match(unparsed?.reason ?? "", /not valid JSON/);
      assert.deepEqual(outcomes.get("test-policy", "b")?.reason_path, ["state"]);
    });
  });

  describe("what a request cost", () => {
    it("records the request's tokens, the group size and the endpoint's lane on each item of the group", async () => {
      const withUsage = (): string => {
        const answer = JSON.parse(confidentAnswer(routing)) as Record<string, unknown>;
        answer.usage = { input_tokens: 120, output_tokens: 0, evaluated_tokens: 90, cached_tokens: 70 };
        return JSON.stringify(answer);
      };
      const { endpoint, decide } = setUp(withUsage);
      Object.assign(endpoint, { lane: "bulk" });

      const { results } = await decide(sqs(item("a", { x: 1 }), item("b", { x: 1 }), item("c", "own")));

      const recorded = results.map((result) => (result.status === "recorded" ? result.outcome : undefined));
      for (const outcome of recorded) {
        assert.equal(outcome?.request?.input_tokens, 120);
        assert.equal(outcome?.request?.evaluated_tokens, 90);
        assert.equal(outcome?.request?.cached_tokens, 70);
        assert.equal(outcome?.lane, "bulk");
      }
      assert.deepEqual(
        recorded.map((outcome) => outcome?.request?.group_size),
        [2, 2, 1],
      );
    });

    it("records the prompt tokens alone, and no lane, for an endpoint that says no more", async () => {
      const { decide } = setUp();

      const { results } = await decide(sqs(item("a", { x: 1 })));

      const [result] = results;
      assert.ok(result?.status === "recorded");
      assert.equal(result.outcome.request?.input_tokens, 10);
      assert.equal(result.outcome.request?.evaluated_tokens, undefined);
      assert.equal(result.outcome.request?.cached_tokens, undefined);
      assert.equal(result.outcome.lane, undefined);
    });
  });

  describe("rule precedence", () => {
    it("applies the rules in file order to each item's facts on the group's one answer: rejected > fallback > overridden > decided", async () => {
      // The model's answer is route=billing for all: one request for the shared state.
      const { endpoint, outcomes, decide } = setUp();
      const state = { subject: "Contract question" };

      const { results } = await decide(
        sqs(
          item("plain", state, { tier: "free" }),
          item("hold", state, { hold: true }),
          item("review", state, { tier: "enterprise" }),
          item("hold-review", state, { tier: "enterprise", hold: true }),
          item("hold-free", state, { tier: "free", hold: true }),
        ),
      );

      assert.equal(endpoint.bodies.length, 1);
      assert.deepEqual(statuses(results), [
        "recorded:decided",
        "recorded:overridden",
        "recorded:fallback",
        "recorded:fallback",
        "recorded:rejected",
      ]);
      const fired = (id: string) => outcomes.get("test-policy", id)?.rules_fired.map((rule) => rule.name);
      assert.deepEqual(fired("hold-review"), ["hold_to_legal", "enterprise_review"]);
      assert.deepEqual(fired("hold-free"), ["hold_to_legal", "no_free_legal"]);
      assert.equal(outcomes.get("test-policy", "hold")?.answers?.route?.answer, "legal");
      assert.equal(outcomes.get("test-policy", "hold")?.answers?.route?.model_answer, "billing");
      assert.match(outcomes.get("test-policy", "hold-free")?.reason ?? "", /^no_free_legal: /);
    });

    it("falls back below the threshold, recording the model's answer", async () => {
      const { outcomes, decide } = setUp(() => confidentAnswer(routing, 0.4));

      await decide(sqs(item("unsure", "hello?", { tier: "free" })));

      const route = outcomes.get("test-policy", "unsure")?.answers?.route;
      assert.deepEqual(
        [route?.answer, route?.source, route?.model_answer],
        ["technical", "fallback", "billing"],
      );
      assert.equal(outcomes.get("test-policy", "unsure")?.status, "fallback");
    });
  });

  describe("deadlines", () => {
    it("gives back the items of groups not started before the deadline, and completes the started one", async () => {
      // Remaining 30 s, margin 10 s: groups start until +20 s, writes run until +29 s. The first
      // request moves the clock 25 s on: its group is written, the next ones are not started.
      const { endpoint, outcomes, clock, decide } = setUp(() => {
        clock.advance(25_000);
        return confidentAnswer(routing);
      });

      const { results, requests } = await decide(
        sqs(item("first", "one"), item("second", "two"), item("third", "three")),
        { remainingMs: 30_000, maxConcurrentGroups: 1 },
      );

      assert.deepEqual(statuses(results), ["recorded:decided", "failed", "failed"]);
      for (const result of results.slice(1)) {
        assert.ok(result.status === "failed" && result.reason instanceof DeadlineExceededError);
      }
      assert.equal(endpoint.bodies.length, 1);
      assert.equal(requests, 1);
      assert.deepEqual([...outcomes.outcomes.keys()], ["test-policy/first"]);
    });

    it("gives the endpoint the start deadline and the sink the later finish deadline", async () => {
      const { endpoint, outcomes, clock, decide } = setUp();

      await decide(sqs(item("a", "one")), { remainingMs: 30_000, deadlineMarginMs: 10_000 });

      assert.equal(endpoint.options[0]?.deadline.at, clock.time + 20_000);
      assert.equal(outcomes.deadlines[0]?.at, clock.time + 29_000);
    });

    it("starts nothing once the signal is aborted, giving the items back with its reason", async () => {
      const { endpoint, outcomes, decide } = setUp();
      const abort = new AbortController();
      abort.abort(new Error("interrupted"));

      const { results } = await decide(sqs(item("a", "one"), "{not json"), { signal: abort.signal });

      assert.equal(results[0]?.status === "failed" && (results[0].reason as Error).message, "interrupted");
      assert.equal(results[1]?.status, "recorded", "a rejection needs no model call: it is written");
      assert.equal(endpoint.bodies.length, 0);
      assert.equal(outcomes.outcomes.size, 1);
    });
  });

  describe("transient and permanent failures", () => {
    it("gives back the items of a group whose request failed transiently, writing nothing for them", async () => {
      const { outcomes, decide } = setUp((body) => {
        if (body.includes('"down"')) throw new RetriesExhaustedError(3, "attempts");
        return confidentAnswer(routing);
      });

      const { results } = await decide(sqs(item("a", "down"), item("b", "down"), item("c", "up")));

      assert.deepEqual(statuses(results), ["failed", "failed", "recorded:decided"]);
      assert.ok(results[0]?.status === "failed" && results[0].reason instanceof RetriesExhaustedError);
      assert.deepEqual([...outcomes.outcomes.keys()], ["test-policy/c"]);
    });

    it("rejects the items of a request the model refused for good, with its reason", async () => {
      const { outcomes, decide } = setUp(() => {
        throw new PermanentEndpointError({
          endpointName: "memory",
          errorName: "ValidationError",
          originalStatusCode: 400,
          originalMessage: "the prompt is longer than the context",
        });
      });

      const { results } = await decide(sqs(item("a", "long"), item("b", "long")));

      assert.deepEqual(statuses(results), ["recorded:rejected", "recorded:rejected"]);
      const outcome = outcomes.get("test-policy", "a");
      assert.match(outcome?.reason ?? "", /longer than the context/);
      assert.deepEqual(outcome?.request, { endpoint: "memory", group_size: 2, attempts: 1 });
    });

    it("gives back the items of an answer that is not a System One response", async () => {
      const { outcomes, decide } = setUp(() => '{"answers": {}}');

      const { results } = await decide(sqs(item("a", "one")));

      assert.deepEqual(statuses(results), ["failed"]);
      assert.equal(outcomes.outcomes.size, 0);
    });

    it("gives back only the item whose write failed", async () => {
      const { outcomes, decide } = setUp();
      outcomes.failNext = [new TransientOutcomeStoreError("outcomes", "ThrottlingException")];

      const { results } = await decide(sqs(item("a", "same"), item("b", "same")), {
        outcomeWriteConcurrency: 1,
      });

      assert.deepEqual(statuses(results), ["failed", "recorded:decided"]);
      assert.ok(results[0]?.status === "failed" && results[0].reason instanceof TransientOutcomeStoreError);
    });

    it("never throws when everything fails: every input comes back failed", async () => {
      const { outcomes, telemetry, decide } = setUp(() => {
        throw new RetriesExhaustedError(6, "attempts");
      });
      outcomes.failAlways = new TransientOutcomeStoreError("outcomes", "ECONNREFUSED");

      const { results } = await decide(sqs(item("a", "one"), item("b", "two"), "not json", item("c", 42)));

      assert.deepEqual(statuses(results), ["failed", "failed", "failed", "failed"]);
      assert.deepEqual(telemetry.calls, ["flush 2"]);
    });
  });

  describe("configuration errors and unknown policies", () => {
    it("gives back the items of a request the endpoint could not be called for as configured, naming each item", async () => {
      const { outcomes, decide } = setUp(() => {
        throw new EndpointConfigurationError({
          endpointName: "decisions-typo",
          errorName: "ValidationError",
          httpStatus: 400,
          serviceMessage: "Endpoint decisions-typo of account 000000000000 not found.",
        });
      });

      const { results } = await decide(sqs(item("a", "one"), item("b", "one")));

      assert.deepEqual(statuses(results), ["failed", "failed"]);
      assert.equal(outcomes.outcomes.size, 0, "never a rejected outcome");
      assert.ok(results[0]?.status === "failed" && results[0].reason instanceof ConfigurationError);
      assert.deepEqual(
        results.map((result) => (result.status === "failed" ? [result.policy, result.id] : [])),
        [
          ["test-policy", "a"],
          ["test-policy", "b"],
        ],
      );
    });

    it("gives back an SQS item naming a policy that is not loaded while its message is younger than the wait, then rejects it", async () => {
      const { outcomes, clock, decide } = setUp();
      const sentAt = clock.now() - 60_000;
      const input: WorkItemInput = {
        body: item("n-1", "one", {}, "new-policy"),
        origin: { kind: "sqs", messageId: "m-new", receiveCount: 1, sentAt },
      };

      const waiting = await decide([input], { unknownPolicyWaitMs: 900_000 });
      clock.advance(900_000);
      const late = await decide([input], { unknownPolicyWaitMs: 900_000 });

      const [first] = waiting.results;
      assert.ok(first?.status === "failed" && first.reason instanceof UnknownPolicyError);
      assert.equal(first.reason.policy, "new-policy");
      assert.equal(first.reason.waitLeftSeconds, 840);
      assert.match(first.reason.message, /"new-policy" is not deployed .*loaded: other-policy, test-policy/);
      assert.deepEqual([first.policy, first.id], ["new-policy", "n-1"]);
      assert.deepEqual(statuses(late.results), ["recorded:rejected"]);
      assert.match(outcomes.get("new-policy", "n-1")?.reason ?? "", /unknown policy "new-policy"/);
    });

    it("rejects an unknown policy at once without a wait, or for an input that is not an SQS message", async () => {
      const { decide } = setUp();
      const fromFile: WorkItemInput = {
        body: item("f-1", "one", {}, "nope"),
        origin: { kind: "file", line: 1 },
      };

      const noWait = await decide(sqs(item("n-2", "one", {}, "nope")));
      const file = await decide([fromFile], { unknownPolicyWaitMs: 900_000 });

      assert.deepEqual(statuses(noWait.results), ["recorded:rejected"]);
      assert.deepEqual(statuses(file.results), ["recorded:rejected"]);
    });
  });

  describe("duplicates", () => {
    it("keeps the outcome that stands and reports it, for a redelivery and for a repeated id", async () => {
      const { outcomes, telemetry, decide } = setUp();
      const first = await decide(sqs(item("a", "one", { tier: "free" })));
      const standing = outcomes.get("test-policy", "a");

      const again = await decide(sqs(item("a", "one", { hold: true }), item("a", "other state")));

      assert.deepEqual(statuses(first.results), ["recorded:decided"]);
      assert.deepEqual(statuses(again.results), ["duplicate", "duplicate"]);
      const [redelivered] = again.results;
      assert.ok(redelivered?.status === "duplicate");
      assert.deepEqual([redelivered.policy, redelivered.id], ["test-policy", "a"]);
      assert.equal(redelivered.existing, standing);
      assert.equal(outcomes.get("test-policy", "a"), standing, "the first outcome stands, unchanged");
      assert.deepEqual(
        telemetry.calls.filter((call) => call.startsWith("duplicate")),
        ["duplicate test-policy/a", "duplicate test-policy/a"],
      );
    });

    it("asks nothing for a group whose items the sink says it holds", async () => {
      const { endpoint, outcomes, decide } = setUp();
      outcomes.indexed = true;
      const inputs = sqs(item("a", "shared"), "{broken");
      await decide(inputs);
      const asked = endpoint.bodies.length;

      const { results, groups, requests } = await decide(inputs);

      assert.deepEqual(statuses(results), ["duplicate", "duplicate"]);
      assert.equal(endpoint.bodies.length, asked, "no second request");
      assert.deepEqual([groups, requests], [1, 0]);
    });
  });

  describe("origins and admission", () => {
    it("records a file line as the outcome's source and keys an unreadable line by its number", async () => {
      const { outcomes, decide } = setUp();

      await decide([
        { body: item("a", "one"), origin: { kind: "file", line: 3 } },
        { body: "{oops", origin: { kind: "file", line: 4 } },
      ]);

      assert.deepEqual(outcomes.get("test-policy", "a")?.source, { kind: "file", line: 3 });
      assert.deepEqual(outcomes.get("_unparsed", "line-4")?.source, { kind: "file", line: 4 });
    });

    it("rejects an item its caller does not admit, with the caller's reason and path", async () => {
      const { endpoint, outcomes, decide } = setUp();

      const { results } = await decide(sqs(item("a", "one"), item("b", "one", {}, "other-policy")), {
        admit: (parsed) =>
          parsed.policy.name === "test-policy"
            ? undefined
            : { reason: "not this run's", reasonPath: ["policy"] },
      });

      assert.deepEqual(statuses(results), ["recorded:decided", "recorded:rejected"]);
      assert.equal(endpoint.bodies.length, 1);
      const refused = outcomes.get("other-policy", "b");
      assert.deepEqual([refused?.reason, refused?.reason_path], ["not this run's", ["policy"]]);
      assert.equal(refused?.policy_version, other.version);
    });
  });
});
