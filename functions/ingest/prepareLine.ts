import { createHash } from "node:crypto";
import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import { type JsonNode, JsonTextError, jsonValueOf, parseJsonText } from "../../contract/wire/index.js";
import {
  describeIssues,
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  MAX_POLICY_NAME_BYTES,
  WorkItemSchema,
} from "../../contract/workItem/WorkItemSchema.js";
import { checkFacts, type PolicySet } from "../../core/policy/index.js";

/** Where a line comes from. */
export interface LineOrigin {
  bucket: string;
  key: string;
  versionId?: string;
  /** The ETag of the object first read, standing for the version in a bucket without versioning. */
  etag?: string;
  line: number;
}

/** A valid line, as the message body to send. */
export interface PreparedMessage {
  kind: "message";
  id: string;
  policy: string;
  /** The line's text with `id` added when it had none; the state's text unchanged. */
  body: string;
}

/** A bad line, to be recorded as a `rejected` outcome. */
export interface BadLine {
  kind: "rejected";
  policy: string;
  id: string;
  reason: string;
  path?: (string | number)[];
}

/**
 * The deterministic id of a line without one: `s3-` and 32 hex digits of SHA-256 over
 * bucket, key, version and line number, so ingesting the same object again gives the same ids
 * (and no second outcome). Without a version (a bucket without versioning) the ETag stands in for
 * it, as in the job's id: another object put under the same key gets ids of its own, so its lines
 * are not taken for duplicates of the first one's.
 */
export function lineId(origin: LineOrigin): string {
  const version =
    origin.versionId ?? (origin.etag !== undefined ? `e:${origin.etag.replaceAll('"', "")}` : "");
  const digest = createHash("sha256")
    .update(`${origin.bucket}\n${origin.key}\n${version}\n${origin.line}`)
    .digest("hex");
  return `s3-${digest.slice(0, 32)}`;
}

/** How a reason names a line: `s3://bucket/key line N`. */
export function lineLocation(origin: Pick<LineOrigin, "bucket" | "key" | "line">): string {
  return `s3://${origin.bucket}/${origin.key} line ${origin.line}`;
}

/**
 * Validates one JSONL line as a work item for a loaded policy (facts checked too) and returns the
 * message to send, or the reason it is bad, naming the object and line. A line without `id` gets
 * {@link lineId}, inserted into the text so the rest (the state) stays as written.
 */
export function prepareLine(
  text: string,
  origin: LineOrigin,
  policies: PolicySet,
): PreparedMessage | BadLine {
  const where = lineLocation(origin);
  const fallbackId = lineId(origin);
  let root: JsonNode;
  try {
    root = parseJsonText(text);
  } catch (error) {
    const reason = error instanceof JsonTextError ? error.message : String(error);
    return {
      kind: "rejected",
      policy: UNPARSED_POLICY,
      id: fallbackId,
      reason: `${where}: not valid JSON: ${reason}`,
    };
  }
  let body = text;
  if (root.kind === "object" && !root.members.some((member) => member.key === "id")) {
    const rest = text.slice(root.start + 1);
    body = `${text.slice(0, root.start)}{"id": ${JSON.stringify(fallbackId)}${root.members.length > 0 ? ", " : ""}${rest}`;
  }
  const value =
    root.kind === "object" ? { id: fallbackId, ...(jsonValueOf(root) as object) } : jsonValueOf(root);
  const parsed = WorkItemSchema.safeParse(value);
  if (!parsed.success) {
    const { reason, path } = describeIssues(parsed.error);
    const named = value as { id?: unknown; policy?: unknown };
    const storable =
      isStorableKey(named.id, MAX_ITEM_ID_BYTES) && isStorableKey(named.policy, MAX_POLICY_NAME_BYTES);
    const policy = storable ? (named.policy as string) : UNPARSED_POLICY;
    const id = storable ? (named.id as string) : fallbackId;
    return { kind: "rejected", policy, id, reason: `${where}: invalid work item: ${reason}`, path };
  }
  const item = parsed.data;
  const policy = policies.get(item.policy);
  if (policy === undefined) {
    return {
      kind: "rejected",
      policy: item.policy,
      id: item.id,
      reason: `${where}: unknown policy "${item.policy}" (loaded: ${policies.names().join(", ")})`,
      path: ["policy"],
    };
  }
  // The facts as parsed: the work item schema's record drops a "__proto__" key, checkFacts refuses it.
  const facts = checkFacts(policy, (value as { facts?: unknown }).facts);
  if (!facts.ok) {
    return {
      kind: "rejected",
      policy: item.policy,
      id: item.id,
      reason: `${where}: facts: ${facts.reason}`,
      path: ["facts", ...facts.path],
    };
  }
  return { kind: "message", id: item.id, policy: item.policy, body };
}
