/** An object S3 has just created (what an "Object Created" event is about). */
export interface CreatedObject {
  bucket: string;
  key: string;
  /** The ETag without quotes, when the response carried it in a header (PutObject does). */
  eTag?: string;
  /** Bytes, when the request said (PutObject); absent for a copy or a multipart upload. */
  size?: number;
  /** What created it, as EventBridge's `detail.reason` names it. */
  reason: "PutObject" | "CopyObject" | "CompleteMultipartUpload";
  /** When the response was sent. */
  time: Date;
}

/** What {@link readObjectCreated} looks at: a finished S3 request on fauxqs' routes. */
export interface FinishedS3Request {
  method: string;
  /** The route's pattern (`/:bucket/*` for object requests). */
  route: string | undefined;
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  statusCode: number;
  /** The response's `ETag` header. */
  eTag: string | undefined;
}

/**
 * The object a finished request created, or undefined when it created none: a successful
 * PutObject (`PUT /:bucket/<key>` without `partNumber` or `renameObject`), CopyObject (the same
 * with `x-amz-copy-source`) or CompleteMultipartUpload (`POST /:bucket/<key>?uploadId=…`) — the
 * three requests S3 sends an "Object Created" event for. fauxqs' own routes decide the same way.
 */
export function readObjectCreated(request: FinishedS3Request, now = new Date()): CreatedObject | undefined {
  if (request.statusCode !== 200 || request.route !== "/:bucket/*") return undefined;
  const bucket = request.params.bucket;
  const key = request.params["*"];
  const eTag = request.eTag?.replaceAll('"', "");
  if (!bucket || !key) return undefined;
  const query = request.query;
  let reason: CreatedObject["reason"];
  if (request.method === "PUT") {
    if ("renameObject" in query || ("uploadId" in query && "partNumber" in query)) return undefined;
    if (Object.keys(query).some((name) => SUBRESOURCES.has(name))) return undefined;
    reason = request.headers["x-amz-copy-source"] === undefined ? "PutObject" : "CopyObject";
  } else if (request.method === "POST" && typeof query.uploadId === "string" && !("uploads" in query)) {
    reason = "CompleteMultipartUpload";
  } else {
    return undefined;
  }
  const size = reason === "PutObject" ? declaredSize(request.headers) : undefined;
  return {
    bucket,
    key,
    reason,
    time: now,
    ...(eTag ? { eTag } : {}),
    ...(size === undefined ? {} : { size }),
  };
}

/** PUT on an object with one of these changes the object's settings, not its content. */
const SUBRESOURCES = new Set(["tagging", "acl", "retention", "legal-hold", "attributes"]);

function declaredSize(headers: FinishedS3Request["headers"]): number | undefined {
  // An aws-chunked body (the SDK's streaming checksums) declares its content's length apart.
  const text = headers["x-amz-decoded-content-length"] ?? headers["content-length"];
  const value = Number(Array.isArray(text) ? text[0] : text);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
