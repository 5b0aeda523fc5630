import { ImageReferenceError } from "./errors.js";

/** A container image in Amazon ECR pinned by digest. */
export interface PinnedImage {
  /** The reference as given (`<registry>/<repository>@sha256:<digest>`). */
  uri: string;
  /** The registry's AWS account. */
  account: string;
  /** The registry's region. */
  region: string;
  /** Repository name, e.g. `llama-cpp`. */
  repository: string;
  /** `sha256:<64 hex>`. */
  digest: string;
}

const ECR_IMAGE =
  /^(?<account>\d{12})\.dkr\.ecr\.(?<region>[a-z]{2}(?:-[a-z]+)+-\d)\.amazonaws\.com(?:\.cn)?\/(?<repository>[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?)@(?<digest>sha256:[0-9a-f]{64})$/;

/**
 * Parses an Amazon ECR image reference and requires a digest, so every deploy runs the same bytes
 * (a tag such as `server-sagemaker-cpu-v1` can be moved to another image at any time).
 *
 * @throws {ImageReferenceError} `mutable-tag` when no `@sha256:` digest is given; `not-ecr` when the
 * registry is not private Amazon ECR (SageMaker pulls from nowhere else); `malformed` otherwise
 * (a tag beside the digest included: what runs would not be what the reference seems to say).
 * @example
 * ```ts
 * parsePinnedImage("763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp@sha256:<64 hex>");
 * ```
 */
export function parsePinnedImage(reference: string): PinnedImage {
  const uri = reference.trim();
  if (/\/[^/@]+:[\w][\w.-]{0,127}@sha256:/.test(uri)) {
    // Docker resolves such a reference by the digest and ignores the tag; a reader may trust the tag.
    throw new ImageReferenceError(
      `"${uri}" has both a tag and a digest: only the digest decides what runs. Drop the tag: <registry>/<repository>@sha256:<digest>`,
      "malformed",
      uri,
    );
  }
  const match = ECR_IMAGE.exec(uri);
  const groups = match?.groups;
  if (
    groups?.account !== undefined &&
    groups.region !== undefined &&
    groups.repository !== undefined &&
    groups.digest !== undefined
  ) {
    return {
      uri,
      account: groups.account,
      region: groups.region,
      repository: groups.repository,
      digest: groups.digest,
    };
  }
  if (!/@sha256:[0-9a-f]{64}$/.test(uri)) {
    throw new ImageReferenceError(
      `"${uri}" is not pinned by digest: a tag is mutable. Give <registry>/<repository>@sha256:<digest> ` +
        `(find it with: aws ecr describe-images or docker buildx imagetools inspect)`,
      "mutable-tag",
      uri,
    );
  }
  if (!/^\d{12}\.dkr\.ecr\./.test(uri)) {
    throw new ImageReferenceError(
      `"${uri}" is not in Amazon ECR: SageMaker pulls images from private ECR only ` +
        `(the AWS llama.cpp images are at 763104351884.dkr.ecr.<region>.amazonaws.com/llama-cpp)`,
      "not-ecr",
      uri,
    );
  }
  throw new ImageReferenceError(
    `"${uri}" is not an image reference of the form <account>.dkr.ecr.<region>.amazonaws.com/<repository>@sha256:<digest>`,
    "malformed",
    uri,
  );
}
