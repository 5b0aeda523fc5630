import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ImageReferenceError, parsePinnedImage } from "../../../infra/index.js";

const DIGEST = `sha256:${"0123456789abcdef".repeat(4)}`;

describe("parsePinnedImage", () => {
  it("reads account, region, repository and digest of an ECR image pinned by digest", () => {
    const image = parsePinnedImage(`763104351884.dkr.ecr.eu-west-1.amazonaws.com/llama-cpp@${DIGEST}`);

    assert.deepEqual(image, {
      uri: `763104351884.dkr.ecr.eu-west-1.amazonaws.com/llama-cpp@${DIGEST}`,
      account: "763104351884",
      region: "eu-west-1",
      repository: "llama-cpp",
      digest: DIGEST,
    });
  });

  it("refuses a tag beside the digest (only the digest decides what runs; the tag would mislead)", () => {
    assert.throws(
      () =>
        parsePinnedImage(`123456789012.dkr.ecr.us-east-1.amazonaws.com/team/llama-cpp:server-v1@${DIGEST}`),
      (error: unknown) =>
        error instanceof ImageReferenceError &&
        error.reason === "malformed" &&
        /both a tag and a digest/.test(error.message),
    );
    assert.equal(
      parsePinnedImage(`123456789012.dkr.ecr.us-east-1.amazonaws.com/team/llama-cpp@${DIGEST}`).repository,
      "team/llama-cpp",
    );
  });

  it("refuses a tag alone as mutable", () => {
    assert.throws(
      () =>
        parsePinnedImage("763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp:server-sagemaker-cpu-v1"),
      (error: unknown) => error instanceof ImageReferenceError && error.reason === "mutable-tag",
    );
    assert.throws(
      () => parsePinnedImage("763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp"),
      (error: unknown) => error instanceof ImageReferenceError && error.reason === "mutable-tag",
    );
  });

  it("refuses a registry SageMaker cannot pull from", () => {
    assert.throws(
      () => parsePinnedImage(`public.ecr.aws/deep-learning-containers/llama-cpp@${DIGEST}`),
      (error: unknown) => error instanceof ImageReferenceError && error.reason === "not-ecr",
    );
  });

  it("refuses a digest of the wrong length", () => {
    assert.throws(
      () => parsePinnedImage("763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp@sha256:abc"),
      (error: unknown) => error instanceof ImageReferenceError && error.reason === "mutable-tag",
    );
  });
});
