import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SystemOneAnswer } from "../../../adapter/engine/systemOne/systemOneTypes.js";
import { loadJevBench } from "../../../evaluation/jevbench/loadJevBench.js";
import { readJevBenchAnswer } from "../../../evaluation/jevbench/readJevBenchAnswer.js";
import { runJevBench } from "../../../evaluation/jevbench/runJevBench.js";
import type { JevBenchItem } from "../../../evaluation/jevbench/types.js";
import { FakeEngine } from "../../support/FakeEngine.js";

async function someItems(count: number): Promise<JevBenchItem[]> {
  const cases = await loadJevBench(undefined, ["easy.jsonl", "original.jsonl"]);
  // Every question type: easy has choice and noul, original adds score.
  const picked = [
    ...cases.filter((c) => c.question.type === "score").slice(0, 1),
    ...cases.slice(0, count - 1),
  ];
  return picked.map((testCase) => ({ ...testCase, file: testCase.id.split("-")[0] ?? "" }));
}

describe("readJevBenchAnswer", () => {
  it("reads a noul answer as yes = P(yes), no = 1 − P(yes)", () => {
    const read = readJevBenchAnswer({ type: "noul", noul: 0.25 }, ["no", "yes"]);

    assert.deepEqual(read, { ok: true, distribution: { no: 0.75, yes: 0.25 } });
  });

  it("accepts a sum within 1e-3 of 1 and refuses one further off, or other labels", () => {
    const answer = (probabilities: Record<string, number>): SystemOneAnswer => ({
      type: "choice",
      choice: "a",
      confidence: 0.5,
      probabilities,
    });

    assert.equal(readJevBenchAnswer(answer({ a: 0.5, b: 0.5009 }), ["a", "b"]).ok, true);
    assert.equal(readJevBenchAnswer(answer({ a: 0.5, b: 0.52 }), ["a", "b"]).ok, false);
    assert.equal(readJevBenchAnswer(answer({ a: 0.5, c: 0.5 }), ["a", "b"]).ok, false);
    assert.equal(readJevBenchAnswer(answer({ a: 1.2, b: -0.2 }), ["a", "b"]).ok, false);
    assert.equal(readJevBenchAnswer(undefined, ["a", "b"]).ok, false);
  });
});

describe("runJevBench", () => {
  it("answers each case through the engine, one engine call per case, scored against its label", async () => {
    const engine = new FakeEngine();
    const items = await someItems(6);
    const seen: number[] = [];

    const records = await runJevBench(engine, items, { onRecord: (_, done) => seen.push(done) });

    assert.equal(engine.scored.length, items.length);
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6]);
    for (const [index, record] of records.entries()) {
      const item = items[index];
      assert.ok(item !== undefined && record.valid, record.id);
      assert.deepEqual(Object.keys(record.probabilities ?? {}), item.labels);
      assert.ok(item.labels.includes(record.predicted ?? ""));
      assert.equal(record.correct, record.predicted === String(item.expected));
      assert.ok(record.latency_ms >= 0 && (record.input_tokens ?? 0) > 0);
    }
  });

  it("asks every case's question in the layout given, direct-options-v1 when none is", async () => {
    const items = await someItems(3);
    const asked = new FakeEngine();
    const byDefault = new FakeEngine();

    const records = await runJevBench(asked, items, { layout: "question-first-v1" });
    await runJevBench(byDefault, items);

    assert.deepEqual(
      asked.scored.flatMap((batch) => batch.questions.map((question) => question.layout)),
      ["question-first-v1", "question-first-v1", "question-first-v1"],
    );
    assert.deepEqual(
      byDefault.scored.flatMap((batch) => batch.questions.map((question) => question.layout)),
      ["direct-options-v1", "direct-options-v1", "direct-options-v1"],
    );
    // The record keeps what the engine answered with (this fake always answers direct-options-v1).
    assert.deepEqual(
      records.map((record) => record.prompt_version),
      ["direct-options-v1", "direct-options-v1", "direct-options-v1"],
    );
  });

  it("records an engine failure as an invalid answer and goes on", async () => {
    const engine = new FakeEngine();
    engine.failNext = new Error("prompt too long");
    const items = await someItems(2);

    const records = await runJevBench(engine, items);

    assert.deepEqual(
      records.map((record) => [record.valid, record.correct]),
      [
        [false, false],
        [true, records[1]?.correct],
      ],
    );
    assert.match(records[0]?.error ?? "", /prompt too long/);
  });

  it("stops on an abort instead of recording it", async () => {
    const controller = new AbortController();
    controller.abort();

    await assert.rejects(runJevBench(new FakeEngine(), await someItems(2), { signal: controller.signal }));
  });
});
