import type { Readable } from "node:stream";
import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { Job } from "../../contract/index.js";
import { JobResultsNotReadyError, JobResultsReadError } from "./errors.js";

/** Where an `s3://bucket/key` URI points. */
export interface S3Location {
  bucket: string;
  key: string;
}

/**
 * The bucket and key of an `s3://bucket/key` URI.
 * @throws JobResultsReadError when it is not one.
 */
export function parseS3Uri(uri: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (match === null) throw new JobResultsReadError(uri, "NotAnS3Uri");
  return { bucket: match[1] as string, key: match[2] as string };
}

/**
 * The job's JSONL results object as a stream (one line per input line, in input order), straight
 * from S3: memory stays bounded whatever the object's size.
 *
 * @throws JobResultsNotReadyError when the job has no `results_uri` yet; JobResultsReadError when
 *   the object cannot be read.
 */
export async function readJobResults(job: Job, s3: S3Client): Promise<Readable> {
  if (job.results_uri === undefined) throw new JobResultsNotReadyError(job.job_id, job.status);
  const { bucket, key } = parseS3Uri(job.results_uri);
  try {
    const output = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return output.Body as Readable;
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    throw new JobResultsReadError(job.results_uri, typeof name === "string" ? name : "Error", {
      cause: error,
    });
  }
}
