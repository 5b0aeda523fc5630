import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { InvalidDecisionError } from "../../../adapter/engine/errors.js";
import type { JsonText } from "../../../contract/wire/index.js";
import { loadPolicies, type Policy, type PolicySet } from "../../../core/policy/index.js";
import { classifyItems } from "../../../operations/classify/classifyItems.js";
import { InProcessEndpoint } from "../../../operations/classify/InProcessEndpoint.js";
import { ResultsFile } from "../../../operations/classify/ResultsFile.js";
import { readItemLines } from "../../../operations/classify/readItemLines.js";
import { FakeEngine } from "../../support/FakeEngine.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));

const LINES = [
  '{"id": "a", "policy": "ticket-routing", "state": {"2024": 1, "subject": "refund", "x": 2.0}}',
  '{"id": "b", "policy": "ticket-routing", "state": {"2024": 1, "subject": "refund", "x": 2.0}}',
  '{"id": "c", "state": "printer on fire", "facts": {"pii": true}}',
  '{"id": "d", oops}',
  '{"id": "e", "policy": "incident-priority", "state": "disk full", "facts": {"service": "db"}}',
  '{"id": "a", "policy": "ticket-routing", "state": "a repeated id"}',
];

describe("classifyItems", () => {
  let policies: PolicySet;
  let policy: Policy;
  let dir: string;
  let runs = 0;

  const run = async (
    engine: FakeEngine,
    lines: string[] | Uint8Array = LINES,
    out = join(dir, `out-${++runs}.jsonl`),
  ) => {
    const { file, resume } = await ResultsFile.open(out);
    try {
      const summary = await classifyItems({
        items: readItemLines(Array.isArray(lines) ? lines.join("\n") : lines, "ticket-routing"),
        policy,
        policies,
        endpoint: new InProcessEndpoint({ engine }),
        results: file,
        resume,
      });
      const written = (await readFile(out, "utf8"))
        .trim()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line));
      return { summary, written, out };
    } finally {
      await file.close();
    }
  };

  before(async () => {
    policies = await loadPolicies(POLICIES);
    policy = policies.get("ticket-routing") as Policy;
    dir = await mkdtemp(join(tmpdir(), "classify-"));
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("decides shared states once, keeps the first outcome of a repeated id, and rejects what the pipeline rejects", async () => {
    const engine = new FakeEngine();

    const { summary, written } = await run(engine);

    assert.equal(engine.scored.length, 2, "a+b share one call, c another; the repeated a is not asked");
    assert.deepEqual(
      written.map((outcome) => [outcome.policy, outcome.id, outcome.source.kind, outcome.source.line]),
      [
        ["_unparsed", "line-4", "file", 4],
        ["incident-priority", "e", "file", 5],
        ["ticket-routing", "a", "file", 1],
        ["ticket-routing", "b", "file", 2],
        ["ticket-routing", "c", "file", 3],
      ],
    );
    assert.deepEqual(
      written.map((outcome) => outcome.status),
      [
        "rejected",
        "rejected",
        written[2].answers ? written[2].status : "no answers",
        written[2].status,
        "fallback",
      ],
    );
    assert.match(written[1].reason, /this run classifies "ticket-routing"/);
    assert.equal(written[2].request.group_size, 2);
    assert.deepEqual(written[2].answers, written[3].answers);
    assert.deepEqual(
      written[4].rules_fired.map((rule: { name: string }) => rule.name),
      ["pii_to_human_review"],
    );
    assert.equal(summary.total, 6);
    assert.equal(summary.requests, 2);
    assert.deepEqual(summary.repeated, ["ticket-routing/a"], "the repeated id is reported");
    assert.equal(summary.skipped, 0, "not counted as already in the results");
  });

  it("rejects each line that is not UTF-8 with the reason, and decides the others", async () => {
    const engine = new FakeEngine();
    const bytes = Buffer.concat([
      Buffer.from('{"id": "inv-'),
      Buffer.from([0xff]),
      Buffer.from('", "state": "first state"}\n{"id": "inv-'),
      Buffer.from([0xfe]),
      Buffer.from('", "state": "another state"}\r\n'),
      Buffer.from('{"id": "ok-\u00e9", "state": "a state \u20ac"}\n'),
    ]);

    const { summary, written } = await run(engine, bytes);

    assert.deepEqual(
      written.map((outcome) => [outcome.policy, outcome.id, outcome.status, outcome.source.line]),
      [
        ["_unparsed", "line-1", "rejected", 1],
        ["_unparsed", "line-2", "rejected", 2],
        ["ticket-routing", "ok-\u00e9", written[2]?.status, 3],
      ],
    );
    assert.notEqual(written[2]?.status, "rejected", "the valid line is decided");
    assert.match(written[0]?.reason, /^line 1: not valid UTF-8/);
    assert.match(written[1]?.reason, /^line 2: not valid UTF-8/);
    assert.deepEqual(summary.repeated, [], "no line is taken for another");
    assert.equal(engine.scored.length, 1);
  });

  it("gives the engine the state as written, as the adapter does", async () => {
    const engine = new FakeEngine();

    await run(engine, [LINES[0] as string, LINES[2] as string]);

    const [first, second] = engine.scored;
    // The fake keeps a structured clone of each batch: a JsonText arrives as its fields.
    assert.equal((first?.state as JsonText | undefined)?.text, '{"2024": 1, "subject": "refund", "x": 2.0}');
    assert.equal(second?.state, "printer on fire");
  });

  it("skips what the results file holds, and asks nothing for a group already written", async () => {
    const first = await run(new FakeEngine());
    const kept = first.written.slice(0, 3);
    const out = join(dir, "resumed.jsonl");
    await writeFile(
      out,
      `${kept.map((outcome) => JSON.stringify(outcome)).join("\n")}\n{"policy": "ticket-rou`,
    );
    const engine = new FakeEngine();

    const resumed = await run(engine, LINES, out);

    assert.equal(resumed.summary.skipped, 4, "lines 4, 5 and both lines of a");
    assert.deepEqual(
      resumed.written.map((outcome) => outcome.id),
      ["line-4", "e", "a", "b", "c"],
    );
    assert.equal(resumed.written[3].request.group_size, 2, "b keeps the size of its group with a");
    assert.deepEqual(resumed.written[3].answers, first.written[3].answers);
    assert.equal(engine.scored.length, 2);
  });

  it("rejects the items of a request the engine refuses for good, with the reason", async () => {
    const engine = new FakeEngine();
    engine.failNext = new InvalidDecisionError(["state"], "the prompt is longer than the context");

    const { written } = await run(engine, [LINES[2] as string]);

    assert.equal(written[0].status, "rejected");
    assert.match(written[0].reason, /longer than the context/);
  });
});
