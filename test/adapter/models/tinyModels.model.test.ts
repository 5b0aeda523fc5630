import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import {
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { LlamaFileType } from "../../../adapter/gguf/index.js";
import {
  ensureGeneratedModel,
  MODEL_KIND_SPECS,
  type ModelKind,
  qwen3TokenizerJsonPath,
} from "../../../adapter/models/index.js";

const SYSTEM =
  "Apply the supplied criterion to the supplied evidence. Choose exactly one listed option. Respond with only its uppercase letter, with no explanation or reasoning.";

function chatPrompt(evidence: string): string {
  const user = JSON.stringify({
    evidence,
    criterion: "Which team should handle this ticket?",
    options: [
      { letter: "A", description: "billing" },
      { letter: "B", description: "technical support" },
      { letter: "C", description: "sales" },
      { letter: "D", description: "legal" },
    ],
  })
    .replaceAll('":', '": ')
    .replaceAll('","', '", "')
    .replaceAll("},{", "}, {");
  return `<|im_start|>system\n${SYSTEM}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n`;
}

const LETTERS = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));

let llama: Llama;

before(async () => {
  llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
});

after(async () => {
  await llama.dispose();
});

async function nextTokenDistribution(
  sequence: LlamaContextSequence,
  tokens: Token[],
): Promise<Map<Token, number>> {
  await sequence.clearHistory();
  const last = tokens.at(-1);
  assert.ok(last !== undefined);
  const results = await sequence.controlledEvaluate([
    ...tokens.slice(0, -1),
    [last, { generateNext: { probabilities: true } }],
  ]);
  const probabilities = results.at(-1)?.next?.probabilities;
  assert.ok(probabilities !== undefined, "no probabilities returned");
  return probabilities;
}

for (const kind of ["tiny-llama", "tiny-qwen3", "tiny-qwen35"] as const satisfies readonly ModelKind[]) {
  describe(`generated ${kind}`, () => {
    let model: LlamaModel;
    let context: LlamaContext;
    let sequence: LlamaContextSequence;

    before(async () => {
      const modelPath = await ensureGeneratedModel(kind);
      model = await llama.loadModel({ modelPath });
      context = await model.createContext({ contextSize: 1024, threads: 2, sequences: 1 });
      sequence = context.getSequence();
    });

    after(async () => {
      await context?.dispose();
      await model?.dispose();
    });

    it("reports its architecture and file type", () => {
      const spec = MODEL_KIND_SPECS[kind];

      const general = model.fileInfo.metadata.general;

      assert.equal(general.architecture, spec.architecture);
      assert.equal(general.file_type, LlamaFileType[spec.fileType]);
      assert.equal(general.name, kind);
    });

    it("tokenizes the ChatML markers to single control tokens", () => {
      const start = model.tokenize("<|im_start|>", true);
      const end = model.tokenize("<|im_end|>", true);

      assert.equal(start.length, 1);
      assert.equal(end.length, 1);
      assert.notEqual(start[0], end[0]);
      // without special-token parsing the markers are plain text, several tokens long
      assert.ok(model.tokenize("<|im_start|>", false).length > 1);
    });

    it("encodes each letter A–Z as exactly one new token after the assistant prefix", () => {
      const prompt = chatPrompt("The customer was charged twice for the premium plan.");
      const base = model.tokenize(prompt, true);

      const added = LETTERS.map((letter) => model.tokenize(prompt + letter, true).slice(base.length));

      for (const [i, tokens] of added.entries()) assert.equal(tokens.length, 1, `letter ${LETTERS[i]}`);
      assert.equal(new Set(added.map((tokens) => tokens[0])).size, 26);
    });

    it("tokenizes a prompt to a realistic number of tokens", () => {
      const prompt = chatPrompt("The customer was charged twice for the premium plan and asks for a refund.");

      const tokens = model.tokenize(prompt, true);

      // about 4–5 characters per token, as real vocabularies give; one token per byte would be ~560
      assert.ok(tokens.length < prompt.length / 3, `${tokens.length} tokens for ${prompt.length} characters`);
    });

    it("yields a finite next-token distribution summing to 1 where A..D have probability > 0", async () => {
      const tokens = model.tokenize(chatPrompt("The customer was charged twice."), true);

      const distribution = await nextTokenDistribution(sequence, tokens);

      let sum = 0;
      for (const probability of distribution.values()) {
        assert.ok(Number.isFinite(probability) && probability >= 0);
        sum += probability;
      }
      assert.ok(Math.abs(sum - 1) < 1e-3, `sum ${sum}`);
      for (const letter of ["A", "B", "C", "D"]) {
        const [token] = model.tokenize(`\n\n${letter}`, false).slice(-1);
        assert.ok(token !== undefined);
        assert.ok((distribution.get(token) ?? 0) > 0, `P(${letter}) is 0`);
      }
    });

    it("gives different distributions for different evidence", async () => {
      const first = await nextTokenDistribution(
        sequence,
        model.tokenize(chatPrompt("The invoice is wrong."), true),
      );
      const second = await nextTokenDistribution(
        sequence,
        model.tokenize(chatPrompt("The server is down."), true),
      );

      const [a] = model.tokenize("\n\nA", false).slice(-1);
      assert.ok(a !== undefined);
      assert.notEqual(first.get(a), second.get(a));
    });

    it(`${kind === "tiny-qwen35" ? "needs" : "does not need"} state checkpoints (its state ${kind === "tiny-qwen35" ? "cannot" : "can"} be truncated)`, () => {
      assert.equal(sequence.needsCheckpoints, kind === "tiny-qwen35");
    });
  });
}

describe("generated tiny-qwen3 vocabulary", () => {
  let model: LlamaModel;
  let vocab: Record<string, number>;

  before(async () => {
    model = await llama.loadModel({ modelPath: await ensureGeneratedModel("tiny-qwen3") });
    const json = JSON.parse(await readFile(qwen3TokenizerJsonPath(), "utf8")) as {
      model: { vocab: Record<string, number> };
    };
    vocab = json.model.vocab;
  });

  after(async () => {
    await model?.dispose();
  });

  const id = (piece: string): number => {
    const value = vocab[piece];
    assert.ok(value !== undefined, `"${piece}" is not in tokenizer.json`);
    return value;
  };

  it("tokenizes text to the ids of Qwen3's tokenizer.json", () => {
    // prepare: byte-level BPE writes a leading space as "Ġ" and a newline as "Ċ"
    const expected: [string, number[]][] = [
      ["Hello world", [id("Hello"), id("Ġworld")]],
      [" A", [id("ĠA")]],
      ["A", [id("A")]],
      ["<|im_start|>user\nHi<|im_end|>", [151644, id("user"), id("Ċ"), id("Hi"), 151645]],
    ];

    // act
    const actual = expected.map(([text]) => model.tokenize(text, true).map(Number));

    // assert
    assert.deepEqual(
      actual,
      expected.map(([, ids]) => ids),
    );
  });

  it("keeps every letter A–Z a single token with its tokenizer.json id", () => {
    const actual = LETTERS.map((letter) => model.tokenize(letter, false).map(Number));

    assert.deepEqual(
      actual,
      LETTERS.map((letter) => [id(letter)]),
    );
  });
});
