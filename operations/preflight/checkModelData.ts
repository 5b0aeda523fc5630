import { GetObjectCommand, HeadBucketCommand, HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { PreflightCheck } from "./PreflightCheck.js";

/** The manifest `decisions models package` writes beside the GGUF (the fields checked here). */
interface ManifestFields {
  file: string;
  sha256: string;
  size_bytes: number;
}

const MANIFEST_FILE_NAME = "model-manifest.json";

/**
 * The model data exists where `modelDataUrl` points, in the deploy region, before `cdk deploy`
 * (SageMaker reads it when the model is created):
 * - a `model.tar.gz`: the object exists and is not empty (its manifest is inside the archive and is
 *   checked by the adapter at start; reading it here would mean downloading the GGUF);
 * - an unpacked prefix (ending in `/`): `model-manifest.json` is there, and the GGUF it names is
 *   there with the manifest's size and, when S3 holds a full-object SHA-256 checksum, its digest.
 */
export async function checkModelData(
  s3: S3Client,
  modelDataUrl: string,
  region: string,
): Promise<PreflightCheck[]> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(modelDataUrl);
  if (match?.[1] === undefined || match[2] === undefined) {
    return [{ name: "model data", status: "fail", detail: `not an s3://bucket/key URI: ${modelDataUrl}` }];
  }
  const [bucket, key] = [match[1], match[2]];
  const checks: PreflightCheck[] = [];
  const bucketRegion = await headBucketRegion(s3, bucket);
  if (bucketRegion === null) {
    return [
      {
        name: "model bucket",
        status: "fail",
        detail: `bucket ${bucket} does not exist or cannot be read: create it in ${region} and upload the model`,
      },
    ];
  }
  checks.push(
    bucketRegion === undefined || bucketRegion === region
      ? {
          name: "model bucket",
          status: "pass",
          detail: `${bucket} in ${bucketRegion ?? "an unreported region"}`,
        }
      : {
          name: "model bucket",
          status: "fail",
          detail: `${bucket} is in ${bucketRegion}, the stack deploys to ${region}: SageMaker reads model data from its own region; copy the model to a bucket in ${region}`,
        },
  );
  if (!key.endsWith("/")) {
    const head = await headObject(s3, bucket, key);
    checks.push(
      head === null
        ? {
            name: "model data",
            status: "fail",
            detail: `${modelDataUrl} does not exist: package the GGUF (decisions models package <gguf> --out model.tar.gz) and upload it there`,
          }
        : (head.ContentLength ?? 0) === 0
          ? { name: "model data", status: "fail", detail: `${modelDataUrl} is empty` }
          : {
              name: "model data",
              status: "pass",
              detail: `${modelDataUrl}, ${head.ContentLength} bytes (the manifest inside is checked by the adapter at start)`,
            },
    );
    return checks;
  }
  const manifest = await readManifest(s3, bucket, `${key}${MANIFEST_FILE_NAME}`);
  if (typeof manifest === "string") {
    checks.push({
      name: "model manifest",
      status: "fail",
      detail: `s3://${bucket}/${key}${MANIFEST_FILE_NAME}: ${manifest}`,
    });
    return checks;
  }
  checks.push({
    name: "model manifest",
    status: "pass",
    detail: `names ${manifest.file}, ${manifest.size_bytes} bytes`,
  });
  const gguf = await headObject(s3, bucket, `${key}${manifest.file}`);
  const where = `s3://${bucket}/${key}${manifest.file}`;
  if (gguf === null) {
    checks.push({
      name: "model file",
      status: "fail",
      detail: `${where}, named by the manifest, does not exist: upload the GGUF beside its manifest`,
    });
  } else if (gguf.ContentLength !== manifest.size_bytes) {
    checks.push({
      name: "model file",
      status: "fail",
      detail: `${where} is ${gguf.ContentLength} bytes, the manifest says ${manifest.size_bytes}: upload the GGUF the manifest was written for`,
    });
  } else if (gguf.ChecksumSHA256 !== undefined && gguf.ChecksumType === "FULL_OBJECT") {
    const digest = Buffer.from(gguf.ChecksumSHA256, "base64").toString("hex");
    checks.push(
      digest === manifest.sha256
        ? { name: "model file", status: "pass", detail: `${where}: size and SHA-256 match the manifest` }
        : {
            name: "model file",
            status: "fail",
            detail: `${where} has SHA-256 ${digest}, the manifest says ${manifest.sha256}`,
          },
    );
  } else {
    checks.push({
      name: "model file",
      status: "pass",
      detail: `${where}: size matches the manifest (S3 holds no full-object SHA-256 to compare; upload with --checksum-algorithm SHA256 to have one)`,
    });
  }
  return checks;
}

/** The bucket's region; `undefined` when S3 does not say; `null` when the bucket is missing or forbidden. */
async function headBucketRegion(s3: S3Client, bucket: string): Promise<string | undefined | null> {
  try {
    return (await s3.send(new HeadBucketCommand({ Bucket: bucket }))).BucketRegion;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function headObject(s3: S3Client, bucket: string, key: string) {
  try {
    return await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: "ENABLED" }));
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function readManifest(s3: S3Client, bucket: string, key: string): Promise<ManifestFields | string> {
  let text: string;
  try {
    const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    text = (await answer.Body?.transformToString()) ?? "";
  } catch (error) {
    if (isMissing(error))
      return "does not exist: upload the model-manifest.json written by decisions models manifest beside the GGUF";
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "is not JSON";
  }
  const fields = parsed as Partial<ManifestFields>;
  if (
    typeof fields.file !== "string" ||
    typeof fields.sha256 !== "string" ||
    typeof fields.size_bytes !== "number"
  ) {
    return "lacks file, sha256 or size_bytes";
  }
  return { file: fields.file, sha256: fields.sha256, size_bytes: fields.size_bytes };
}

function isMissing(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404 || status === 403;
}
