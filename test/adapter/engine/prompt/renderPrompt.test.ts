import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import {
  ASSISTANT_OPENING,
  PROMPT_VERSION,
  QUESTION_FIRST_VERSION,
  renderPrompt,
  renderUserText,
  SYSTEM_TEXT,
} from "../../../../adapter/engine/prompt/renderPrompt.js";
import { JsonText } from "../../../../contract/wire/index.js";
import { loadPythonStates } from "../../../contract/wire/pythonStates.fixture.js";

const options = [
  { id: "billing", description: "Billing team" },
  { id: "technical", description: "Technical support" },
];

describe("renderPrompt", () => {
  it("renders direct-options-v1 exactly, with labels and without option ids", () => {
    const prompt = renderPrompt("Charged twice.", "Which team?", options, ["A", "B"]);
    const expected =
      `<|im_start|>system\n${SYSTEM_TEXT}<|im_end|>\n<|im_start|>user\n` +
      '{"evidence": "Charged twice.", "criterion": "Which team?", "options": [{"letter": "A", "description": "Billing team"}, ' +
      '{"letter": "B", "description": "Technical support"}]}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n';
    assert.equal(prompt.text, expected);
    assert.equal(PROMPT_VERSION, "direct-options-v1");
    assert.ok(!prompt.text.includes("billing"));
  });

  it("hashes the UTF-8 bytes of the rendered text", () => {
    const prompt = renderPrompt({ kunde: "Müller", items: [1, 2.5] }, "Priorität?", options, ["A", "B"]);
    assert.equal(prompt.sha256, createHash("sha256").update(Buffer.from(prompt.text, "utf8")).digest("hex"));
    assert.ok(
      prompt.text.includes('{"evidence": {"kunde": "Müller", "items": [1, 2.5]}, "criterion": "Priorität?"'),
    );
  });

  it("exposes the preamble and the prefix shared by every question on the state as prefixes of the text", () => {
    const prompt = renderPrompt("state", "q", options, ["A", "B"]);
    assert.ok(prompt.text.startsWith(prompt.sharedPrefix));
    assert.ok(prompt.sharedPrefix.startsWith(prompt.preamble));
    assert.equal(prompt.sharedPrefix, `${prompt.preamble}{"evidence": "state", "criterion": `);
    assert.ok(prompt.preamble.endsWith("<|im_start|>user\n"));
    assert.equal(prompt.state, '"state"');
    assert.equal(prompt.layout, "direct-options-v1");
  });

  it("renders question-first-v1 exactly: criterion and options first, the evidence last", () => {
    const prompt = renderPrompt("Charged twice.", "Which team?", options, ["A", "B"], "question-first-v1");
    const user =
      '{"criterion": "Which team?", "options": [{"letter": "A", "description": "Billing team"}, ' +
      '{"letter": "B", "description": "Technical support"}], "evidence": "Charged twice."}';
    assert.equal(
      prompt.text,
      `<|im_start|>system\n${SYSTEM_TEXT}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n${ASSISTANT_OPENING}`,
    );
    assert.equal(prompt.layout, QUESTION_FIRST_VERSION);
    assert.equal(prompt.sharedPrefix, prompt.text.slice(0, prompt.text.indexOf('"Charged twice."')));
    assert.ok(prompt.sharedPrefix.endsWith(', "evidence": '));
    assert.equal(prompt.preamble, renderPrompt("x", "y", [], []).preamble, "both layouts share the preamble");
  });

  it("hashes question-first-v1 as Python renders it", () => {
    // python3 -c 'import json,hashlib; S="<SYSTEM_TEXT>"; u=json.dumps({"criterion": "Priorität?",
    //   "options": [{"letter": "A", "description": "Billing team"}, {"letter": "B", "description":
    //   "Technical support"}], "evidence": json.loads("{\"kunde\": \"Müller\", \"2024\": 2.0}")},
    //   ensure_ascii=False); t=f"<|im_start|>system\n{S}<|im_end|>\n<|im_start|>user\n{u}<|im_end|>\n
    //   <|im_start|>assistant\n<think>\n\n</think>\n\n"; print(hashlib.sha256(t.encode()).hexdigest())'
    const state = new JsonText('{"kunde": "Müller", "2024": 2.0}');
    const prompt = renderPrompt(state, "Priorität?", options, ["A", "B"], "question-first-v1");
    assert.equal(prompt.sha256, "5dddb9dd2b040983d86f13ced3874f31b71a3160e7e7eea10bb9965b94855ec7");
  });

  it("keeps the system text on one line with single spaces", () => {
    assert.ok(!SYSTEM_TEXT.includes("\n"));
    assert.ok(!SYSTEM_TEXT.includes("  "));
  });

  it("refuses fewer labels than options", () => {
    assert.throws(() => renderPrompt("s", "q", options, ["A"]), RangeError);
  });

  it("renders the same text as a ChatML chat of the system text and the user JSON", () => {
    const state = { ticket: "INC-1", text: "down" };
    const user = renderUserText(state, "Which team?", options, ["A", "B"]);
    const chat = `<|im_start|>system\n${SYSTEM_TEXT}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n${ASSISTANT_OPENING}`;
    assert.equal(chat, renderPrompt(state, "Which team?", options, ["A", "B"]).text);
  });

  describe("prompt_sha256 equals SemIf's (Python) for a state given as JSON text", () => {
    const fixtures = loadPythonStates();
    for (const fixture of fixtures.cases) {
      it(fixture.name, () => {
        const prompt = renderPrompt(
          new JsonText(fixture.text),
          fixtures.question,
          fixtures.options,
          fixtures.labels,
        );
        assert.equal(prompt.sha256, fixture.prompt_sha256);
        assert.equal(prompt.state, fixture.python_dumps);
        assert.equal(
          prompt.sharedPrefix,
          `${prompt.preamble}{"evidence": ${fixture.python_dumps}, "criterion": `,
        );
      });
    }

    it("which a plain object cannot give when keys are integer-like or floats are written 2.0", () => {
      const fixture = fixtures.cases.find((item) => item.name === "integer-like keys");
      assert.ok(fixture);
      const plain = renderPrompt(
        JSON.parse(fixture.text),
        fixtures.question,
        fixtures.options,
        fixtures.labels,
      );
      assert.notEqual(plain.sha256, fixture.prompt_sha256);
    });
  });
});
