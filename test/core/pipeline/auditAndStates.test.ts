/**
 * The pipeline core's audit draw (a policy's audit_rate sends that fraction of decided items to
 * review, the same ones on every delivery) and its state archive port (the whole state of an item
 * going to review is kept before its outcome is written), with in-memory ports.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256Hex } from "../../../core/common/sha256Hex.js";
import {
  auditDraw,
  auditOf,
  decideItems,
  type StateArchiveWriter,
  type WorkItemInput,
} from "../../../core/pipeline/index.js";
import { type Policy, PolicySet, parsePolicy } from "../../../core/policy/index.js";
import { FakeClock } from "../../support/FakeClock.js";
import { policyText } from "../policy/fabricate.js";
import { confidentAnswer, MemoryEndpoint, MemorySink, RecordingTelemetry } from "./memoryPorts.js";

const audited: Policy = parsePolicy(
  policyText(`audit_rate: 0.25
facts:
  tier:
    type: string
    enum: [free, enterprise]
rules:
  - name: enterprise_review
    when: has(facts.tier) && facts.tier == "enterprise"
    review: Enterprise tickets are checked by a person.
`),
  "test-policy.yaml",
);

let messages = 0;
const inputs = (items: { id: string; state: unknown; facts?: object }[]): WorkItemInput[] =>
  items.map(({ id, state, facts }) => {
    messages += 1;
    return {
      body: JSON.stringify({ id, policy: "test-policy", state, facts: facts ?? {} }),
      origin: { kind: "sqs", messageId: `m-${messages}`, receiveCount: 1 },
    };
  });

class MemoryArchive implements StateArchiveWriter {
  readonly puts: { sha: string; text: string }[] = [];
  failWith: Error | undefined;
  async put(sha: string, text: string): Promise<void> {
    if (this.failWith !== undefined) throw this.failWith;
    this.puts.push({ sha, text });
  }
}

function setUp(archive?: MemoryArchive) {
  const outcomes = new MemorySink();
  const decide = (items: WorkItemInput[]) =>
    decideItems(
      items,
      {
        endpoint: new MemoryEndpoint(() => confidentAnswer(audited)),
        outcomes,
        telemetry: new RecordingTelemetry(),
        clock: new FakeClock(),
        ...(archive === undefined ? {} : { states: archive }),
      },
      {
        policies: new PolicySet([audited]),
        remainingMs: 60_000,
        deadlineMarginMs: 10_000,
        maxConcurrentGroups: 4,
      },
    );
  return { outcomes, decide };
}

describe("the audit draw", () => {
  it("is the first 48 bits of sha256(policy, id) over 2^48: known values, the same on every call", () => {
    const expected = Number.parseInt(sha256Hex("test-policy\nT-1").slice(0, 12), 16) / 2 ** 48;
    assert.equal(auditDraw("test-policy", "T-1"), expected);
    assert.equal(auditDraw("test-policy", "T-1"), auditDraw("test-policy", "T-1"));
    assert.notEqual(auditDraw("test-policy", "T-1"), auditDraw("other-policy", "T-1"));
  });

  it("audits about audit_rate of 4000 ids (within 4 standard errors) and none at rate 0", () => {
    const ids = Array.from({ length: 4000 }, (_, i) => `item-${i}`);
    const picked = ids.filter((id) => auditOf(audited, id) !== undefined).length;
    const sd = Math.sqrt(4000 * 0.25 * 0.75);
    assert.ok(Math.abs(picked - 1000) < 4 * sd, `${picked} of 4000 audited at 0.25`);
    assert.equal(ids.filter((id) => auditOf({ name: "p", auditRate: 0 }, id) !== undefined).length, 0);
  });

  it("marks decided items under <policy>#audit, the same ones when they come again, and leaves fallbacks alone", async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `t-${i}`, state: { n: i } }));
    const first = setUp();
    const again = setUp();

    await first.decide(inputs(items));
    await again.decide(inputs(items));

    const marked = (sink: MemorySink) =>
      items.filter(({ id }) => sink.get("test-policy", id)?.audit !== undefined).map(({ id }) => id);
    const expected = items.filter(({ id }) => auditDraw("test-policy", id) < 0.25).map(({ id }) => id);
    assert.ok(expected.length > 0 && expected.length < 40, "the sample has audited and plain items");
    assert.deepEqual(marked(first.outcomes), expected);
    assert.deepEqual(marked(again.outcomes), expected, "a redelivery draws the same");
    for (const id of expected) {
      const outcome = first.outcomes.get("test-policy", id);
      assert.equal(outcome?.status, "decided", "the automated decision stands");
      assert.equal(outcome?.policy_status, "test-policy#audit");
      assert.equal(outcome?.audit?.rate, 0.25);
    }
    const review = setUp();
    await review.decide(inputs([{ id: expected[0] ?? "", state: "x", facts: { tier: "enterprise" } }]));
    const fallback = review.outcomes.get("test-policy", expected[0] ?? "");
    assert.equal(fallback?.status, "fallback");
    assert.equal(fallback?.audit, undefined, "a fallback is reviewed anyway: no audit mark");
  });
});

describe("the state archive port", () => {
  const long = { body: "x".repeat(2000) };
  const plainId =
    Array.from({ length: 100 }, (_, i) => `p-${i}`).find((id) => auditDraw("test-policy", id) >= 0.25) ?? "";

  it("keeps the whole state of an item going to review, once per group, by its sha256", async () => {
    const archive = new MemoryArchive();
    const { outcomes, decide } = setUp(archive);

    await decide(
      inputs([
        { id: "r-1", state: long, facts: { tier: "enterprise" } },
        { id: "r-2", state: long, facts: { tier: "enterprise" } },
      ]),
    );

    const outcome = outcomes.get("test-policy", "r-1");
    assert.equal(outcome?.status, "fallback");
    assert.equal(archive.puts.length, 1, "the two items share the state and one put");
    assert.equal(archive.puts[0]?.text, JSON.stringify(long));
    assert.equal(archive.puts[0]?.sha, outcome?.state_sha256);
    assert.equal(sha256Hex(archive.puts[0]?.text ?? ""), outcome?.state_sha256);
  });

  it("keeps nothing for a decided item or a state the preview holds whole", async () => {
    const archive = new MemoryArchive();
    const { decide } = setUp(archive);

    await decide(
      inputs([
        { id: plainId, state: long },
        { id: "short", state: "short", facts: { tier: "enterprise" } },
      ]),
    );

    assert.deepEqual(archive.puts, []);
  });

  it("gives the items back and writes nothing when the state cannot be kept", async () => {
    const archive = new MemoryArchive();
    archive.failWith = new Error("bucket gone");
    const { outcomes, decide } = setUp(archive);

    const { results } = await decide(inputs([{ id: "r-3", state: long, facts: { tier: "enterprise" } }]));

    assert.equal(results[0]?.status, "failed");
    assert.equal(outcomes.get("test-policy", "r-3"), undefined);
  });
});
