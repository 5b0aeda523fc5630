import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  formatHubModelUri,
  hubModelRef,
  ModelHubError,
  parseHubModelUri,
} from "../../../adapter/models/index.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

describe("parseHubModelUri", () => {
  it("reads the repository, the file (in folders too) and the revision, default main", () => {
    assert.deepEqual(parseHubModelUri("hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf"), {
      repo: "Qwen/Qwen3-0.6B-GGUF",
      file: "Qwen3-0.6B-Q8_0.gguf",
      revision: "main",
    });
    assert.deepEqual(parseHubModelUri("hf:acme/x/Q4_K_M/x-Q4_K_M.gguf@refs/pr/1"), {
      repo: "acme/x",
      file: "Q4_K_M/x-Q4_K_M.gguf",
      revision: "refs/pr/1",
    });
  });

  it("refuses a URI without a file, a repository without an owner and a path that climbs out", () => {
    for (const uri of [
      "hf:acme/x",
      "hf:acme",
      "hf:acme/x/../../etc/passwd",
      "hf:acme/x/a.gguf@",
      "Qwen/x/a.gguf",
    ]) {
      assert.throws(
        () => parseHubModelUri(uri),
        (error: unknown) => error instanceof ModelHubError && error.reason === "bad-reference",
        uri,
      );
    }
  });

  it("reads back every reference it formats", () => {
    const part = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,12}$/);
    fc.assert(
      fc.property(
        part,
        part,
        fc.array(part, { minLength: 0, maxLength: 2 }),
        part,
        fc.oneof(part, fc.stringMatching(/^[0-9a-f]{40}$/)),
        (owner, name, folders, file, revision) => {
          const ref = hubModelRef({
            repo: `${owner}/${name}`,
            file: [...folders, `${file}.gguf`].join("/"),
            revision,
          });

          assert.deepEqual(parseHubModelUri(formatHubModelUri(ref)), ref);
        },
      ),
      { numRuns: propertyRuns(process.env, 200) },
    );
  });
});
