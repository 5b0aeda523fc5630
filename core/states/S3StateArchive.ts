import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { Deadline } from "../common/Deadline.js";
import { sha256Hex } from "../common/sha256Hex.js";
import type { StateArchiveWriter } from "../pipeline/ports.js";
import { StateArchiveError } from "./errors.js";

/** Options of {@link S3StateArchive}. */
export interface S3StateArchiveOptions {
  s3: S3Client;
  bucket: string;
  /**
   * The key prefix the states live under (`<prefix><sha256>.json`). Default `"review-states/"`.
   * The deployed bucket expires objects under it (a lifecycle rule); locally nothing expires.
   */
  prefix?: string;
}

/** The default key prefix of kept states. */
export const DEFAULT_STATE_PREFIX = "review-states/";

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The whole states of items sent to review, on S3, content-addressed: `<prefix><sha256>.json`
 * holds the state's text exactly as the producer wrote it. Writing the same state again writes
 * the same bytes (items sharing a state share one object); reading checks the text against the
 * name, so an object that is not the state it names is never shown as that state. How long they
 * are kept is the bucket's business (the CDK app's lifecycle rule under the prefix).
 */
export class S3StateArchive implements StateArchiveWriter {
  readonly bucket: string;
  readonly prefix: string;
  readonly #s3: S3Client;

  constructor(options: S3StateArchiveOptions) {
    this.#s3 = options.s3;
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? DEFAULT_STATE_PREFIX;
  }

  /** The object key of a state. */
  keyOf(stateSha256: string): string {
    return `${this.prefix}${stateSha256}.json`;
  }

  /** Keeps a state under its sha256. @throws StateArchiveError on a name that is not its hash. */
  async put(stateSha256: string, stateText: string, options?: { deadline: Deadline }): Promise<void> {
    if (!SHA256_HEX.test(stateSha256) || sha256Hex(stateText) !== stateSha256)
      throw new StateArchiveError(`the state given is not the one named ${stateSha256}`);
    const remaining = options?.deadline.remainingMs();
    await this.#s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(stateSha256),
        Body: stateText,
        ContentType: "application/json; charset=utf-8",
      }),
      remaining === undefined ? {} : { abortSignal: AbortSignal.timeout(Math.max(1, remaining)) },
    );
  }

  /**
   * The state named by `stateSha256`, or undefined when it is not kept (never written, expired,
   * or not the text its name says).
   */
  async get(stateSha256: string): Promise<string | undefined> {
    if (!SHA256_HEX.test(stateSha256)) return undefined;
    let text: string;
    try {
      const answer = await this.#s3.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(stateSha256) }),
      );
      text = (await answer.Body?.transformToString("utf-8")) ?? "";
    } catch (error) {
      const name = (error as { name?: unknown }).name;
      if (name === "NoSuchKey" || name === "NotFound") return undefined;
      throw error;
    }
    return sha256Hex(text) === stateSha256 ? text : undefined;
  }
}
