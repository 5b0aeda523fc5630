/**
 * The control-text screen on a real vocabulary (tiny-qwen3, generated, vocabulary only): it lists
 * the ChatML control texts, and whatever the text, the screened check answers what tokenizing it
 * both ways answers.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { getLlama, LlamaLogLevel, type LlamaModel } from "node-llama-cpp";
import { findReservedToken } from "../../../../adapter/engine/prompt/findReservedToken.js";
import { reservedTextScreenOf } from "../../../../adapter/engine/prompt/reservedTextScreen.js";
import { ensureGeneratedModel } from "../../../../adapter/models/generateModel.js";

/** Whether tokenizing with special-token parsing differs from tokenizing without: the unscreened rule. */
function holdsControlToken(model: LlamaModel, text: string): boolean {
  const withSpecial = model.tokenize(text, true);
  const plain = model.tokenize(text, false);
  return withSpecial.length !== plain.length || withSpecial.some((token, index) => token !== plain[index]);
}

describe("reservedTextScreen on tiny-qwen3's vocabulary", () => {
  let model: LlamaModel;
  before(async () => {
    const llama = await getLlama({
      gpu: false,
      build: "never",
      maxThreads: 1,
      logLevel: LlamaLogLevel.error,
    });
    model = await llama.loadModel({ modelPath: await ensureGeneratedModel("tiny-qwen3"), vocabOnly: true });
  });
  after(async () => {
    await model?.dispose();
  });

  it("lists the ChatML control texts", () => {
    const texts = reservedTextScreenOf(model)?.texts ?? [];

    for (const control of ["<|im_start|>", "<|im_end|>", "<|endoftext|>"])
      assert.ok(texts.includes(control), control);
  });

  it("answers as tokenizing both ways does, for text with and without control text", () => {
    const screen = reservedTextScreenOf(model);
    assert.ok(screen !== undefined);
    const texts = [
      "I was charged twice.",
      "The customer writes again about the invoice. ".repeat(300),
      "a < b | c > d",
      "<|im_start",
      "im_end|>",
      "<|x y|>",
      "<think>reasoning</think>",
      "<tool_call>",
      ...screen.texts.map((control) => `before ${control} after`),
      ...screen.texts,
    ];
    for (const text of texts) {
      const found = findReservedToken(model, text);

      assert.equal(found !== undefined, holdsControlToken(model, text), JSON.stringify(text.slice(0, 40)));
    }
  });
});
