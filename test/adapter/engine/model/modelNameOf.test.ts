import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { modelNameOf } from "../../../../adapter/engine/model/modelNameOf.js";

describe("modelNameOf", () => {
  it("names a model by its general.name, else by its file without .gguf", () => {
    assert.equal(modelNameOf({ name: "Qwen3.5 4B", file: "q.gguf" }), "Qwen3.5 4B");
    assert.equal(modelNameOf({ name: null, file: "Qwen3.5-4B-Q4_K_M.gguf" }), "Qwen3.5-4B-Q4_K_M");
    assert.equal(modelNameOf({ name: "  ", file: "model.GGUF" }), "model");
    assert.equal(modelNameOf({ name: null, file: "weights.bin" }), "weights.bin");
  });
});
