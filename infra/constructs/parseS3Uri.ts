/** Bucket and key of an `s3://bucket/key` URI (either may hold CDK tokens). */
export interface S3Location {
  bucket: string;
  key: string;
}

/** Splits `s3://bucket/key` into bucket and key. @throws Error when it is not such a URI. */
export function parseS3Uri(uri: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (match?.[1] === undefined || match[2] === undefined)
    throw new Error(`not an s3://bucket/key URI: ${uri}`);
  return { bucket: match[1], key: match[2] };
}
