/**
 * The policies shipped in policies/: they load, point editors at the published JSON Schema (which
 * is what the zod schema generates), and each shipped rule demonstrably changes an outcome.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  applyPolicy,
  checkFacts,
  loadPolicies,
  type Policy,
  type PolicySet,
  parsePolicy,
  policyJsonSchema,
} from "../../../core/policy/index.js";
import { choice, noul, peaked, score } from "./fabricate.js";

const POLICY_DIR = fileURLToPath(new URL("../../../policies/", import.meta.url));
const SHIPPED = ["batch-classification", "incident-priority", "ticket-routing"];

const QUEUES = [
  "billing",
  "technical_support",
  "account_access",
  "orders_shipping",
  "sales",
  "security",
  "legal",
  "triage",
];
const TEAMS = [
  "platform",
  "networking",
  "database",
  "payments",
  "identity",
  "frontend",
  "data_pipeline",
  "security",
];
const DOCUMENT_TYPES = [
  "invoice",
  "credit_note",
  "receipt",
  "purchase_order",
  "delivery_note",
  "contract",
  "bank_statement",
  "payslip",
  "tax_form",
  "identity_document",
  "correspondence",
  "other",
];

/** A confident model answer for each ticket-routing question. */
function ticketAnswers(queue: string, priority: string) {
  return {
    queue: choice(peaked(QUEUES, queue, 0.93)),
    priority: choice(peaked(["P1", "P2", "P3", "P4"], priority, 0.91)),
    needs_human: noul(0.05),
  };
}

function incidentAnswers(team: string) {
  return {
    severity: score([0.01, 0.02, 0.9, 0.05, 0.02]),
    owning_team: choice(peaked(TEAMS, team, 0.95)),
    customer_impact: noul(0.97),
  };
}

function documentAnswers(label: string) {
  return { document_type: choice(peaked(DOCUMENT_TYPES, label, 0.95)) };
}

describe("shipped policies", () => {
  let policies: PolicySet;
  const policy = (name: string): Policy => {
    const found = policies.get(name);
    assert.ok(found, `policy ${name} not loaded`);
    return found;
  };

  before(async () => {
    policies = await loadPolicies(POLICY_DIR);
  });

  it("all load, under their file names", () => {
    assert.deepEqual(policies.names(), SHIPPED);
    assert.equal(policy("ticket-routing").questions.length, 3);
    assert.deepEqual(policy("ticket-routing").question("queue")?.labels, QUEUES);
    assert.deepEqual(policy("ticket-routing").question("priority")?.labels, ["P1", "P2", "P3", "P4"]);
    assert.equal(policy("incident-priority").question("severity")?.type, "score");
    assert.deepEqual(policy("incident-priority").question("owning_team")?.labels, TEAMS);
    assert.deepEqual(policy("batch-classification").question("document_type")?.labels, DOCUMENT_TYPES);
  });

  it("each file starts with the yaml-language-server comment pointing at policy.schema.json", async () => {
    for (const name of SHIPPED) {
      const text = await readFile(`${POLICY_DIR}${name}.yaml`, "utf8");
      assert.equal(text.split("\n")[0], "# yaml-language-server: $schema=./policy.schema.json", name);
    }
  });

  it("the committed policy.schema.json is what the zod schema generates (regenerate: node --import tsx lab/scripts/writePolicyJsonSchema.ts)", async () => {
    const committed = JSON.parse(await readFile(`${POLICY_DIR}policy.schema.json`, "utf8"));

    assert.deepEqual(committed, policyJsonSchema());
  });

  it("ticket-routing: the model's confident answers stand when no rule applies", () => {
    const decision = applyPolicy(
      policy("ticket-routing"),
      { customer_tier: "pro" },
      ticketAnswers("billing", "P3"),
    );

    assert.equal(decision.status, "decided");
    assert.equal(decision.answers.queue?.answer, "billing");
    assert.equal(decision.answers.priority?.answer, "P3");
  });

  it("ticket-routing: legal_hold routes to the legal queue whatever the model says", () => {
    const without = applyPolicy(
      policy("ticket-routing"),
      { legal_hold: false },
      ticketAnswers("billing", "P3"),
    );
    const withHold = applyPolicy(
      policy("ticket-routing"),
      { legal_hold: true },
      ticketAnswers("billing", "P3"),
    );

    assert.equal(without.answers.queue?.answer, "billing");
    assert.equal(withHold.status, "overridden");
    assert.equal(withHold.answers.queue?.answer, "legal");
    assert.equal(withHold.answers.queue?.source, "rule");
    assert.equal(withHold.answers.queue?.rule, "legal_hold_to_legal");
    assert.equal(withHold.answers.queue?.model_answer, "billing");
  });

  it("ticket-routing: enterprise customers are never below P2", () => {
    const pro = applyPolicy(
      policy("ticket-routing"),
      { customer_tier: "pro" },
      ticketAnswers("billing", "P4"),
    );
    const enterprise = applyPolicy(
      policy("ticket-routing"),
      { customer_tier: "enterprise" },
      ticketAnswers("billing", "P4"),
    );
    const enterpriseP1 = applyPolicy(
      policy("ticket-routing"),
      { customer_tier: "enterprise" },
      ticketAnswers("billing", "P1"),
    );

    assert.equal(pro.answers.priority?.answer, "P4");
    assert.equal(enterprise.status, "overridden");
    assert.equal(enterprise.answers.priority?.answer, "P2");
    assert.deepEqual(enterprise.rules_fired, [
      { name: "enterprise_at_least_p2", effect: "set", set: { priority: "P2" } },
    ]);
    assert.equal(enterpriseP1.status, "decided");
    assert.equal(enterpriseP1.answers.priority?.answer, "P1");
  });

  it("ticket-routing: personal data sends the ticket to human review, keeping a legal hold's queue", () => {
    const pii = applyPolicy(policy("ticket-routing"), { pii: true }, ticketAnswers("billing", "P3"));
    const piiAndHold = applyPolicy(
      policy("ticket-routing"),
      { pii: true, legal_hold: true },
      ticketAnswers("billing", "P3"),
    );

    assert.equal(pii.status, "fallback");
    assert.match(pii.reason ?? "", /^pii_to_human_review: /);
    assert.equal(pii.answers.queue?.answer, "triage");
    assert.equal(pii.answers.queue?.source, "fallback");
    assert.equal(pii.answers.needs_human?.answer, true);
    assert.equal(piiAndHold.status, "fallback");
    assert.equal(piiAndHold.answers.queue?.answer, "legal");
  });

  it("ticket-routing: an unsure queue falls back to triage with the threshold recorded", () => {
    const answers = { ...ticketAnswers("billing", "P3"), queue: choice(peaked(QUEUES, "billing", 0.6)) };

    const decision = applyPolicy(policy("ticket-routing"), {}, answers);

    // 0.6 against 0.4/7 each becomes about 0.47 at T = 1.3: below 0.55
    assert.equal(decision.status, "fallback");
    assert.equal(decision.answers.queue?.answer, "triage");
    assert.equal(decision.answers.queue?.threshold, 0.55);
    assert.ok((decision.answers.queue?.probability ?? 1) < 0.55);
    assert.equal(decision.answers.queue?.model_answer, "billing");
  });

  it("incident-priority: an incident tagged security always goes to the security team", () => {
    const facts = { service: "checkout-api", environment: "production" };
    const untagged = applyPolicy(
      policy("incident-priority"),
      { ...facts, tags: ["database"] },
      incidentAnswers("database"),
    );
    const tagged = applyPolicy(
      policy("incident-priority"),
      { ...facts, tags: ["database", "security"] },
      incidentAnswers("database"),
    );
    const noTags = applyPolicy(policy("incident-priority"), facts, incidentAnswers("database"));

    assert.equal(untagged.answers.owning_team?.answer, "database");
    assert.equal(noTags.status, "decided");
    assert.equal(tagged.status, "overridden");
    assert.equal(tagged.answers.owning_team?.answer, "security");
    assert.equal(tagged.answers.owning_team?.rule, "security_tag_to_security");
    assert.equal(tagged.answers.severity?.answer, 2);
  });

  it("incident-priority: the service fact is required", () => {
    const check = checkFacts(policy("incident-priority"), { environment: "production" });

    assert.deepEqual(check.ok ? undefined : [check.path, check.reason], [
      ["service"],
      "service: is required",
    ]);
  });

  it("batch-classification: personal data goes to human review", () => {
    const clean = applyPolicy(policy("batch-classification"), { pii: false }, documentAnswers("invoice"));
    const pii = applyPolicy(policy("batch-classification"), { pii: true }, documentAnswers("invoice"));

    assert.equal(clean.status, "decided");
    assert.equal(pii.status, "fallback");
    assert.equal(pii.answers.document_type?.answer, "other");
    assert.equal(pii.answers.document_type?.model_answer, "invoice");
    assert.deepEqual(
      pii.rules_fired.map((rule) => rule.name),
      ["pii_to_human_review"],
    );
  });

  it("batch-classification: identity documents are always reviewed; duplicates are rejected", () => {
    const identity = applyPolicy(policy("batch-classification"), {}, documentAnswers("identity_document"));
    const duplicate = applyPolicy(
      policy("batch-classification"),
      { duplicate_of: "row-17" },
      documentAnswers("invoice"),
    );

    assert.equal(identity.status, "fallback");
    assert.match(identity.reason ?? "", /^identity_documents_reviewed: /);
    assert.equal(duplicate.status, "rejected");
    assert.match(duplicate.reason ?? "", /^duplicate_rejected: Duplicate of an earlier row/);
  });

  it("incident-priority maps an acme.monitoring 'Incident Opened' event to a work item that decides", () => {
    const event = {
      version: "0",
      id: "6a7e8feb-b491-4cf7-a9f1-bf3703467718",
      "detail-type": "Incident Opened",
      source: "acme.monitoring",
      account: "111122223333",
      time: "2026-11-30T08:15:00Z",
      region: "eu-west-1",
      resources: [],
      detail: {
        incident_id: "INC-4711",
        title: "Checkout latency above 2 s",
        description: "p95 latency of checkout-api rose from 300 ms to 2.4 s after the 08:00 deploy.",
        service: "checkout-api",
        environment: "production",
        tags: ["customer-facing", "security"],
        alerts: [{ name: "p95_latency_ms", value: 2400, threshold: 800 }],
      },
    };

    const mapped = policies.mapEvent(event);

    assert.ok(mapped);
    assert.equal(mapped.policy.name, "incident-priority");
    assert.deepEqual(mapped.item, {
      id: "incident-INC-4711",
      policy: "incident-priority",
      state: {
        title: "Checkout latency above 2 s",
        description: "p95 latency of checkout-api rose from 300 ms to 2.4 s after the 08:00 deploy.",
        service: "checkout-api",
        environment: "production",
        alerts: [{ name: "p95_latency_ms", value: 2400, threshold: 800 }],
      },
      facts: {
        service: "checkout-api",
        environment: "production",
        tags: ["customer-facing", "security"],
        alert_count: 1,
      },
      submitted_at: "2026-11-30T08:15:00Z",
    });
    const decision = applyPolicy(mapped.policy, mapped.item.facts, incidentAnswers("platform"));
    assert.equal(decision.answers.owning_team?.answer, "security");
  });
});

describe("policies/README.md", () => {
  it("its example policy loads and decides as the README says", async () => {
    const readme = await readFile(`${POLICY_DIR}README.md`, "utf8");
    const example = readme.split("## Example")[1]?.match(/```yaml\n([\s\S]*?)```/)?.[1];
    assert.ok(example, "no yaml block after ## Example");
    const policy = parsePolicy(example, "refund-approval.yaml");

    const small = applyPolicy(policy, { amount: 120 }, { approve: noul(0.9) });
    const large = applyPolicy(policy, { amount: 900 }, { approve: noul(0.9) });

    assert.equal(small.status, "decided");
    assert.equal(small.answers.approve?.answer, true);
    assert.equal(Number(small.answers.approve?.probability.toFixed(2)), 0.83);
    assert.equal(large.status, "fallback");
    assert.deepEqual(
      [large.answers.approve?.answer, large.answers.approve?.model_answer, large.answers.approve?.rule],
      [false, true, "large_refunds_reviewed"],
    );
  });
});
