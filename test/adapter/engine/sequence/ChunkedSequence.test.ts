/**
 * The chunk-boundary logic on a recording stand-in of node-llama-cpp's sequence: which chunks are
 * evaluated, what is reused, when a saved state is loaded, and that cache failures never fail a
 * call. (The same logic on real models: Scorer.model.test.ts and Scorer.snapshots.model.test.ts assert cached
 * and saved-state answers equal cold ones.)
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Token } from "node-llama-cpp";
import { StateFileCache } from "../../../../adapter/engine/cache/StateFileCache.js";
import { AbortedError } from "../../../../adapter/engine/errors.js";
import {
  type ChunkedPrompt,
  ChunkedSequence,
  type EvaluationSequence,
} from "../../../../adapter/engine/sequence/ChunkedSequence.js";
import { reusablePrefix } from "../../../../adapter/engine/sequence/reusablePrefix.js";

/** Records every evaluation call; state files hold the tokens as JSON. */
class RecordingSequence {
  contextTokens: Token[] = [];
  /** Each evaluateWithoutGeneratingNewTokens call, as [start, end). */
  readonly chunks: [number, number][] = [];
  checkpoints = 0;
  failSaves = false;
  failLoads = false;

  get nextTokenIndex(): number {
    return this.contextTokens.length;
  }

  async evaluateWithoutGeneratingNewTokens(tokens: Token[]): Promise<void> {
    this.chunks.push([this.contextTokens.length, this.contextTokens.length + tokens.length]);
    this.contextTokens.push(...tokens);
  }

  async eraseContextTokenRanges(ranges: { start: number; end: number }[]): Promise<void> {
    for (const range of ranges) this.contextTokens.splice(range.start, range.end - range.start);
  }

  async takeCheckpoint(): Promise<void> {
    this.checkpoints += 1;
  }

  async clearHistory(): Promise<void> {
    this.contextTokens = [];
  }

  async saveStateToFile(path: string): Promise<{ fileSize: number }> {
    if (this.failSaves) throw new Error("ENOSPC: no space left on device");
    const text = JSON.stringify(this.contextTokens);
    await writeFile(path, text);
    return { fileSize: text.length };
  }

  async loadStateFromFile(path: string): Promise<void> {
    if (this.failLoads) throw new Error("the file was truncated");
    this.contextTokens = JSON.parse(await readFile(path, "utf8")) as Token[];
  }

  async controlledEvaluate(): Promise<never> {
    throw new Error("not used by these tests");
  }

  evaluate(): never {
    throw new Error("not used by these tests");
  }
}

/** A prompt of `preamble` shared tokens, then its state's tokens, then its question's. */
function prompt(state: number[], question: number[], preamble = 10): ChunkedPrompt {
  const head = Array.from({ length: preamble }, (_, index) => index + 1);
  return {
    tokens: [...head, ...state, ...question] as Token[],
    preambleBoundary: preamble,
    sharedBoundary: preamble + state.length,
  };
}

const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);

describe("reusablePrefix", () => {
  it("keeps the last boundary within the match at which the live sequence ended a chunk", () => {
    assert.equal(reusablePrefix([10, 50], 60, [10, 50, 70]), 50);
    assert.equal(reusablePrefix([10, 50], 49, [10, 50, 70]), 10, "the state boundary is past the match");
    assert.equal(reusablePrefix([10, 50], 60, [10, 80]), 10, "the live sequence computed 50 inside a chunk");
    assert.equal(reusablePrefix([10, 50], 60, []), 0);
    assert.equal(reusablePrefix([10, 50], 5, [10, 50]), 0);
  });
});

describe("ChunkedSequence", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "chunked-sequence-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  function setUp(minTokens = 32): {
    fake: RecordingSequence;
    chunked: ChunkedSequence;
    files: StateFileCache;
  } {
    const fake = new RecordingSequence();
    const files = new StateFileCache({ maxBytes: 1_000_000, parent: folder });
    const chunked = new ChunkedSequence({
      sequence: fake as unknown as EvaluationSequence,
      batchSize: 16,
      stateFiles: files,
      stateFileMinTokens: minTokens,
    });
    return { fake, chunked, files };
  }

  it("evaluates a cold prompt in its fixed chunks, batch-size steps within each", async () => {
    const { fake, chunked } = setUp();
    const first = prompt(range(100, 40), range(500, 5));
    const done = await chunked.prefill(first);
    assert.deepEqual(done, { reused: 0, fromFile: false });
    assert.deepEqual(fake.chunks, [
      [0, 10],
      [10, 26],
      [26, 42],
      [42, 50],
    ]);
    assert.equal(fake.checkpoints, 2, "a checkpoint at each boundary");
    assert.deepEqual(chunked.chunkEnds, [10, 50]);
  });

  it("reuses the whole state for a second question on it", async () => {
    const { fake, chunked } = setUp();
    const first = prompt(range(100, 40), range(500, 5));
    await chunked.prefill(first);
    await chunked.evaluate(first.tokens.slice(first.sharedBoundary));
    chunked.endedChunkAt(first.tokens.length);
    fake.chunks.length = 0;
    const second = prompt(range(100, 40), range(600, 7));
    assert.deepEqual(await chunked.prefill(second), { reused: 50, fromFile: false });
    assert.deepEqual(fake.chunks, [], "nothing of the state is evaluated again");
    assert.equal(fake.nextTokenIndex, 50, "the first question's suffix was rewound");
  });

  it("gives a state that is a prefix of the live one only the preamble, as a cold run would compute it", async () => {
    const { fake, chunked } = setUp(1000);
    const longer = prompt(range(100, 40), range(500, 5));
    await chunked.prefill(longer);
    fake.chunks.length = 0;
    // Its tokens match the first 20 of the live state, but the live sequence computed them inside
    // the chunk [10, 50): they are evaluated again as the chunk [10, 30).
    const shorter = prompt(range(100, 20), range(500, 5));
    assert.deepEqual(await chunked.prefill(shorter), { reused: 10, fromFile: false });
    assert.deepEqual(fake.chunks, [
      [10, 26],
      [26, 30],
    ]);
    assert.deepEqual(chunked.chunkEnds, [10, 30]);
  });

  it("loads a state evaluated earlier from its saved file, with the chunk ends of a cold run", async () => {
    const { fake, chunked, files } = setUp();
    const first = prompt(range(100, 40), range(500, 5));
    await chunked.prefill(first);
    assert.equal(files.size, 1, "the state was saved at its end");
    await chunked.prefill(prompt(range(900, 40), range(500, 5)));
    fake.chunks.length = 0;
    assert.deepEqual(await chunked.prefill(first), { reused: 50, fromFile: true });
    assert.deepEqual(fake.chunks, []);
    assert.deepEqual(chunked.chunkEnds, [10, 50]);
  });

  it("does not save a state shorter than the minimum", async () => {
    const { chunked, files } = setUp(32);
    await chunked.prefill(prompt(range(100, 31), range(500, 5)));
    assert.equal(files.size, 0);
  });

  it("still evaluates when a save fails, counting the failure", async () => {
    const { fake, chunked, files } = setUp();
    fake.failSaves = true;
    const done = await chunked.prefill(prompt(range(100, 40), range(500, 5)));
    assert.deepEqual(done, { reused: 0, fromFile: false });
    assert.equal(fake.nextTokenIndex, 50);
    assert.equal(files.saveFailures, 1);
    assert.match(String(files.lastError?.message), /ENOSPC/);
  });

  it("evaluates the state instead when its saved file fails to load, counting the failure", async () => {
    const { fake, chunked, files } = setUp();
    const first = prompt(range(100, 40), range(500, 5));
    await chunked.prefill(first);
    await chunked.prefill(prompt(range(900, 40), range(500, 5)));
    fake.failLoads = true;
    fake.chunks.length = 0;
    assert.deepEqual(await chunked.prefill(first), { reused: 0, fromFile: false });
    assert.deepEqual(fake.chunks[0], [0, 10], "evaluated from the start");
    assert.equal(files.loadFailures, 1);
    assert.equal(files.size, 2, "the bad file was dropped and the state saved again, beside the other");
  });

  it("rewinds for generation to the common prefix, keeping one token to evaluate", async () => {
    const { fake, chunked } = setUp();
    const first = prompt(range(100, 40), range(500, 5));
    await chunked.prefill(first);
    const start = await chunked.rewindForGeneration(first.tokens.slice(0, 50));
    assert.equal(start, 49);
    assert.equal(fake.nextTokenIndex, 49);
    assert.deepEqual(chunked.chunkEnds, [10], "no chunk end after the rewind point stays");
  });

  it("stops between chunks when the signal aborts", async () => {
    const { chunked } = setUp();
    await assert.rejects(
      chunked.prefill(prompt(range(100, 40), range(500, 5)), AbortSignal.abort()),
      AbortedError,
    );
  });
});
