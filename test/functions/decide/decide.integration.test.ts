/**
 * The decide handler against its real surroundings on 127.0.0.1: Amazon DynamoDB Local, the
 * SageMaker gateway, the real adapter on the generated tiny-qwen3 model (behind a fault-injecting
 * proxy), real SDK clients. One stack for the file; each test gets a fresh outcomes table.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { SQSEvent } from "aws-lambda";
import type { Outcome } from "../../../core/outcomes/index.js";
import { buildSystemOneBody } from "../../../core/pipeline/buildSystemOneBody.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
import { loadPermissivePolicies } from "../support/permissivePolicies.js";
import { ShiftedClock } from "../support/ShiftedClock.js";
import { redelivered, sqsEvent } from "../support/sqsEvent.js";
import { type DecideStack, ENDPOINT, startDecideStack } from "../support/startDecideStack.js";

const ticketBatch = JSON.parse(readFileSync("events/sqs/ticket-batch.json", "utf8")) as SQSEvent;
const incidentEvent = readFileSync("events/eventbridge/incident-opened.json", "utf8");

const ticket = (id: string, state: object, facts: object = {}) =>
  JSON.stringify({ id, policy: "ticket-routing", state, facts });
const incident = (id: string, state: object, facts: object) =>
  JSON.stringify({ id, policy: "incident-priority", state, facts });

const byId = (outcomes: Outcome[]) => new Map(outcomes.map((outcome) => [outcome.id, outcome]));

describe("the decide handler on the local stack (integration)", () => {
  let stack: DecideStack;
  let permissive: PolicySet;

  before(async () => {
    stack = await startDecideStack();
    permissive = await loadPermissivePolicies();
  });

  after(async () => {
    await stack?.stop();
  });

  it("sends one request for 3 records sharing a state, writes 10 outcomes, and a redelivery changes nothing", async () => {
    const decide = await stack.handler();
    const before = stack.gateway.invocations(ENDPOINT);

    const response = await decide.invoke(ticketBatch);

    assert.deepEqual(response.batchItemFailures, []);
    assert.equal(stack.gateway.invocations(ENDPOINT) - before, 8, "7 distinct states + 1 shared");
    const outcomes = await decide.outcomes();
    assert.equal(outcomes.length, 10);
    const shared = ["TCK-10500", "TCK-10501", "TCK-10502"].map((id) => byId(outcomes).get(id));
    assert.ok(shared.every((outcome) => outcome?.request?.group_size === 3));
    assert.equal(new Set(shared.map((outcome) => outcome?.request?.request_id)).size, 1);
    const decisions = decide.emitted
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((doc) => doc.Decisions !== undefined && doc.policy === "ticket-routing");
    assert.equal(
      decisions.reduce((sum, doc) => sum + Number(doc.Decisions), 0),
      10,
      "EMF Decisions by policy and status",
    );

    const again = await decide.invoke(redelivered(ticketBatch));

    assert.deepEqual(again.batchItemFailures, []);
    const after = await decide.outcomes();
    assert.equal(after.length, 10);
    assert.deepEqual(byId(after), byId(outcomes), "the first outcomes stand, unchanged");
  });

  it("rejects an invalid record with the reason and an unparseable body by message id, none retried", async () => {
    const decide = await stack.handler();
    const event = sqsEvent([
      ticket("T-invalid", { subject: "Refund" }, { customer_tier: "platinum" }),
      '{"id": "T-broken", "policy": ',
    ]);

    const response = await decide.invoke(event);

    assert.deepEqual(response.batchItemFailures, []);
    const invalid = await decide.outcome("ticket-routing", "T-invalid");
    assert.equal(invalid?.status, "rejected");
    assert.match(invalid?.reason ?? "", /customer_tier/);
    assert.deepEqual(invalid?.reason_path, ["facts", "customer_tier"]);
    const messageId = event.Records[1]?.messageId ?? "";
    const unparsed = await decide.outcome("_unparsed", messageId);
    assert.equal(unparsed?.status, "rejected");
    assert.match(unparsed?.reason ?? "", /not valid JSON/);
    assert.equal(unparsed?.source.message_id, messageId);
  });

  it("decides after the adapter answers 503 twice, then 200", async () => {
    const decide = await stack.handler({}, { policies: permissive });
    const before = stack.gateway.invocations(ENDPOINT);
    stack.proxy.fail(503, 2);

    const response = await decide.invoke(sqsEvent([ticket("T-retry", { subject: "Where is my order?" })]));

    stack.proxy.reset();
    assert.deepEqual(response.batchItemFailures, []);
    assert.equal(stack.gateway.invocations(ENDPOINT) - before, 3);
    const outcome = await decide.outcome("ticket-routing", "T-retry");
    assert.equal(outcome?.status, "decided");
    assert.equal(outcome?.request?.attempts, 3);
  });

  it("reports exactly the records of an always-503 endpoint as failures and writes nothing for them", async () => {
    const decide = await stack.handler({ maxAttempts: 3 });
    const event = sqsEvent([
      ticket("T-down-1", { subject: "Invoice question" }),
      ticket("T-down-2", { subject: "Password reset" }),
      ticket("T-down-bad", { subject: "x" }, { unknown_fact: true }),
    ]);
    stack.proxy.fail(503);

    const response = await decide.invoke(event);

    stack.proxy.reset();
    assert.deepEqual(
      response.batchItemFailures.map((failure) => failure.itemIdentifier).sort(),
      [event.Records[0]?.messageId, event.Records[1]?.messageId].sort(),
    );
    const outcomes = await decide.outcomes();
    assert.deepEqual(
      outcomes.map((outcome) => `${outcome.id}:${outcome.status}`),
      ["T-down-bad:rejected"],
    );
  });

  it("fails the records of groups not started before the deadline and writes the started ones", async () => {
    const clock = new ShiftedClock();
    // Remaining 120 s, margin 60 s: groups start until +60 s, writes run until +119 s. The first
    // request moves the clock 65 s on: its group is written, the next ones are not started. The
    // first call and its write have the other 54 s of real time, so a starved machine (answers of
    // seconds) still writes it.
    const decide = await stack.handler({ maxConcurrentGroups: 1, deadlineMarginMs: 60_000 }, { clock });
    let shifted = false;
    stack.proxy.onRequest = () => {
      if (!shifted) clock.offsetMs += 65_000;
      shifted = true;
    };
    const event = sqsEvent([
      ticket("T-first", { subject: "First" }),
      ticket("T-second", { subject: "Second" }),
      ticket("T-third", { subject: "Third" }),
    ]);

    const response = await decide.invoke(event, 120_000);

    stack.proxy.onRequest = undefined;
    assert.deepEqual(
      response.batchItemFailures.map((failure) => failure.itemIdentifier).sort(),
      [event.Records[1]?.messageId, event.Records[2]?.messageId].sort(),
    );
    assert.deepEqual(
      (await decide.outcomes()).map((outcome) => outcome.id),
      ["T-first"],
    );
  });

  it("changes an outcome with each shipped rule (overridden or reviewed, rule named)", async () => {
    const decide = await stack.handler({}, { policies: permissive });
    const ticketState = { subject: "Account question", body: "Please look at my account settings." };
    const incidentState = {
      title: "Unusual outbound traffic",
      description: "Egress spike from a build agent.",
      service: "ci-runners",
      environment: "production",
      alerts: [],
    };
    const documentState = "INVOICE No. 2026-0877 TOTAL DUE 1,356.60 EUR";
    const event = sqsEvent([
      ticket("R-plain", ticketState, { customer_tier: "free" }),
      ticket("R-legal", ticketState, { customer_tier: "free", legal_hold: true }),
      ticket("R-enterprise", ticketState, { customer_tier: "enterprise" }),
      ticket("R-pii", ticketState, { customer_tier: "free", pii: true }),
      incident("R-inc-plain", incidentState, { service: "ci-runners", tags: [] }),
      incident("R-inc-security", incidentState, { service: "ci-runners", tags: ["security"] }),
      JSON.stringify({ id: "R-doc", policy: "batch-classification", state: documentState, facts: {} }),
      JSON.stringify({
        id: "R-doc-dup",
        policy: "batch-classification",
        state: documentState,
        facts: { duplicate_of: "R-doc" },
      }),
    ]);

    const response = await decide.invoke(event);

    assert.deepEqual(response.batchItemFailures, []);
    const outcomes = byId(await decide.outcomes());
    const plain = outcomes.get("R-plain");
    assert.equal(plain?.status, "decided");
    assert.deepEqual(plain?.rules_fired, []);

    const legal = outcomes.get("R-legal");
    assert.notEqual(plain?.answers?.queue?.answer, "legal", "the model alone does not route this to legal");
    assert.equal(legal?.status, "overridden");
    assert.equal(legal?.answers?.queue?.answer, "legal");
    assert.equal(legal?.answers?.queue?.rule, "legal_hold_to_legal");
    assert.equal(legal?.answers?.queue?.model_answer, plain?.answers?.queue?.answer);

    const enterprise = outcomes.get("R-enterprise");
    assert.ok(["P3", "P4"].includes(String(plain?.answers?.priority?.answer)), "the model alone says P3/P4");
    assert.equal(enterprise?.status, "overridden");
    assert.equal(enterprise?.answers?.priority?.answer, "P2");
    assert.deepEqual(
      enterprise?.rules_fired.map((rule) => rule.name),
      ["enterprise_at_least_p2"],
    );

    const pii = outcomes.get("R-pii");
    assert.equal(pii?.status, "fallback");
    assert.deepEqual(
      pii?.rules_fired.map((rule) => rule.name),
      ["pii_to_human_review"],
    );

    const incidentPlain = outcomes.get("R-inc-plain");
    const security = outcomes.get("R-inc-security");
    assert.notEqual(incidentPlain?.answers?.owning_team?.answer, "security");
    assert.equal(security?.status, "overridden");
    assert.equal(security?.answers?.owning_team?.answer, "security");
    assert.equal(security?.answers?.owning_team?.rule, "security_tag_to_security");

    assert.equal(outcomes.get("R-doc")?.status, "decided");
    const duplicate = outcomes.get("R-doc-dup");
    assert.equal(duplicate?.status, "rejected");
    assert.match(duplicate?.reason ?? "", /^duplicate_rejected: /);
  });

  it("falls back below a shipped threshold and records the threshold", async () => {
    const decide = await stack.handler();

    await decide.invoke(sqsEvent([ticket("T-unsure", { subject: "Question", body: "Hello?" })]));

    const outcome = await decide.outcome("ticket-routing", "T-unsure");
    assert.equal(outcome?.status, "fallback");
    const queue = outcome?.answers?.queue;
    assert.equal(queue?.threshold, 0.55);
    assert.equal(queue?.source, "fallback");
    assert.equal(queue?.answer, "triage");
    assert.ok((queue?.probability ?? 1) < 0.55);
    assert.match(outcome?.reason ?? "", /queue: probability .* below threshold 0.55/);
  });

  it("decides an EventBridge incident event under incident-priority", async () => {
    const decide = await stack.handler({}, { policies: permissive });
    const event = sqsEvent([incidentEvent]);

    const response = await decide.invoke(event);

    assert.deepEqual(response.batchItemFailures, []);
    const detail = JSON.parse(incidentEvent).detail as { incident_id: string };
    const outcome = await decide.outcome("incident-priority", `incident-${detail.incident_id}`);
    assert.equal(outcome?.status, "decided");
    assert.equal(outcome?.source.kind, "eventbridge");
    assert.equal(outcome?.source.event_source, "acme.monitoring");
    assert.deepEqual(Object.keys(outcome?.answers ?? {}).sort(), [
      "customer_impact",
      "owning_team",
      "severity",
    ]);
  });

  it("passes a state with integer-like keys and 2.0 to the adapter as written and scores it like a direct call", async () => {
    const decide = await stack.handler();
    const stateText = '{"subject": "Refund of 2.0 licences", "2024": {"seats": 2.0}, "1": "first contact"}';
    const body = `{"id": "T-raw", "policy": "ticket-routing", "state": ${stateText}, "facts": {"customer_tier": "pro"}}`;
    stack.proxy.reset();

    await decide.invoke(sqsEvent([body]));

    assert.equal(stack.proxy.bodies.length, 1);
    assert.ok(stack.proxy.bodies[0]?.includes(`"state": ${stateText}`), stack.proxy.bodies[0]);
    const outcome = await decide.outcome("ticket-routing", "T-raw");
    const shipped = (await loadPolicies("policies")).get("ticket-routing");
    assert.ok(shipped);
    const direct = await fetch(`${stack.adapter.url}/invocations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: buildSystemOneBody(shipped, stateText),
    });
    const answers = (
      (await direct.json()) as { answers: Record<string, { probabilities: Record<string, number> }> }
    ).answers;
    // priority has no temperature: the outcome's distribution is the model's.
    for (const [label, p] of Object.entries(answers.priority?.probabilities ?? {})) {
      const recorded = outcome?.answers?.priority?.distribution[label] ?? Number.NaN;
      assert.ok(Math.abs(recorded - p) <= 1e-4, `${label}: ${recorded} vs ${p}`);
    }
    assert.ok(outcome?.prompt_sha256 !== undefined, "the outcome records the prompt hashes");
    {
      const semIf = await fetch(`${stack.adapter.url}/invocations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"decision": {"id": "priority", "state": ${stateText}, "question": ${JSON.stringify(
          shipped.questions[1]?.instructions,
        )}, "options": ${JSON.stringify(
          Object.entries(shipped.systemOneQuestions().priority?.criteria ?? {}).map(([id, description]) => ({
            id,
            description,
          })),
        )}}}`,
      });
      const hash = ((await semIf.json()) as { result: { prompt_sha256: string } }).result.prompt_sha256;
      const recorded = outcome.prompt_sha256;
      assert.equal(typeof recorded === "string" ? recorded : recorded.priority, hash);
    }
  });
});
