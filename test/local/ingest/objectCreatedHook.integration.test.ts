/**
 * fauxqs' object-created hook with the real S3 client: each request that stores an object is told
 * once, after it was answered; requests that store nothing are not.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { CreatedObject } from "../../../local/ingest/readObjectCreated.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { createLocalClients, type LocalClients } from "../../../local/stack/createLocalClients.js";

/**
 * The hook runs once the response is sent, so a client may see its answer first: wait for the
 * listener to have been told `count` objects (bounded by the listener's progress, not a sleep).
 */
async function toldAtLeast(seen: readonly CreatedObject[], count: number): Promise<void> {
  for (let spins = 0; seen.length < count; spins += 1) {
    if (spins > 2000) throw new Error(`told ${seen.length} objects, expected ${count}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("startFauxqs onObjectCreated (integration)", () => {
  let fauxqs: Fauxqs;
  let clients: LocalClients;
  let s3: S3Client;
  const seen: CreatedObject[] = [];
  const listenerErrors: unknown[] = [];

  before(async () => {
    fauxqs = await startFauxqs({
      onObjectCreated: (object) => {
        seen.push(object);
        if (object.key === "throws.jsonl") throw new Error("listener failed");
      },
      onListenerError: (error) => listenerErrors.push(error),
    });
    clients = createLocalClients({ region: fauxqs.region, s3: fauxqs.endpoint });
    s3 = clients.s3 as S3Client;
    await s3.send(new CreateBucketCommand({ Bucket: "ingest" }));
  });

  after(async () => {
    clients?.destroy();
    await fauxqs?.stop();
  });

  it("tells a PutObject with its key, ETag and size, and not the bucket's creation", async () => {
    seen.length = 0;
    const put = await s3.send(
      new PutObjectCommand({ Bucket: "ingest", Key: "incoming/a b.jsonl", Body: '{"id":"1"}\n' }),
    );
    await toldAtLeast(seen, 1);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.bucket, "ingest");
    assert.equal(seen[0]?.key, "incoming/a b.jsonl");
    assert.equal(seen[0]?.eTag, put.ETag?.replaceAll('"', ""));
    assert.equal(seen[0]?.size, 11);
    assert.equal(seen[0]?.reason, "PutObject");
  });

  it("tells a copy and a completed multipart upload once each, not the parts", async () => {
    seen.length = 0;
    await s3.send(
      new CopyObjectCommand({
        Bucket: "ingest",
        Key: "incoming/copy.jsonl",
        CopySource: "ingest/incoming/a b.jsonl",
      }),
    );
    const upload = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: "ingest", Key: "incoming/big.jsonl" }),
    );
    const part = await s3.send(
      new UploadPartCommand({
        Bucket: "ingest",
        Key: "incoming/big.jsonl",
        UploadId: upload.UploadId,
        PartNumber: 1,
        Body: '{"id":"2"}\n',
      }),
    );
    await toldAtLeast(seen, 1);
    assert.deepEqual(
      seen.map((object) => object.reason),
      ["CopyObject"],
    );
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: "ingest",
        Key: "incoming/big.jsonl",
        UploadId: upload.UploadId,
        MultipartUpload: { Parts: [{ ETag: part.ETag, PartNumber: 1 }] },
      }),
    );
    await toldAtLeast(seen, 2);
    assert.deepEqual(
      seen.map((object) => `${object.reason} ${object.key}`),
      ["CopyObject incoming/copy.jsonl", "CompleteMultipartUpload incoming/big.jsonl"],
    );
  });

  it("does not tell reads, deletes, tagging or refused puts", async () => {
    seen.length = 0;
    await s3
      .send(new GetObjectCommand({ Bucket: "ingest", Key: "incoming/copy.jsonl" }))
      .then((out) => out.Body?.transformToString());
    await s3
      .send(
        new PutObjectTaggingCommand({
          Bucket: "ingest",
          Key: "incoming/copy.jsonl",
          Tagging: { TagSet: [{ Key: "k", Value: "v" }] },
        }),
      )
      .catch(() => undefined);
    await s3.send(new DeleteObjectCommand({ Bucket: "ingest", Key: "incoming/copy.jsonl" }));
    await assert.rejects(
      s3.send(new PutObjectCommand({ Bucket: "missing", Key: "incoming/x.jsonl", Body: "x" })),
    );
    // A last put, told after everything before it: the only object told.
    await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: "sentinel.jsonl", Body: "z" }));
    await toldAtLeast(seen, 1);
    assert.deepEqual(
      seen.map((object) => object.key),
      ["sentinel.jsonl"],
    );
  });

  it("passes what the listener throws to onListenerError and keeps answering", async () => {
    seen.length = 0;
    await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: "throws.jsonl", Body: "x" }));
    await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: "after.jsonl", Body: "y" }));
    await toldAtLeast(seen, 2);
    assert.equal(seen.length, 2);
    assert.match(String(listenerErrors[0]), /listener failed/);
  });
});
