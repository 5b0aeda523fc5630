import { CONFLICT_PREVIEW_CHARS, WORK_ITEM_KEPT_BYTES } from "../../contract/outcome/outcomeRecordSchemas.js";
import { sha256Hex } from "../common/sha256Hex.js";
import { truncateText } from "../common/truncateText.js";

/** What an outcome keeps of the work item it was decided from. */
export interface PayloadSummary {
  /** See {@link payloadSha256}. */
  payload_sha256: string;
  /** The text as it arrived, when at most {@link WORK_ITEM_KEPT_BYTES}. */
  work_item?: string;
  /** UTF-8 size of the text. */
  work_item_bytes: number;
}

/**
 * Summarises a work item's text for its outcome: the payload hash, the size, and the text itself
 * when it is small enough to keep (`keptBytes`, default {@link WORK_ITEM_KEPT_BYTES}), so that
 * `decisions outcomes redecide` can send it again.
 *
 * @param value - the text parsed as JSON, or undefined when it is not JSON.
 */
export function summarizePayload(
  text: string,
  value: unknown,
  keptBytes: number = WORK_ITEM_KEPT_BYTES,
): PayloadSummary {
  const bytes = Buffer.byteLength(text, "utf8");
  return {
    payload_sha256: payloadSha256(text, value),
    ...(bytes <= keptBytes ? { work_item: text } : {}),
    work_item_bytes: bytes,
  };
}

/**
 * SHA-256 of a work item's payload: of its JSON value with object keys sorted and the top-level
 * `submitted_at` left out (when it was sent is not what is decided), or of the text itself when it
 * is not JSON. So the same item sent again (a redelivery, a resubmission, other key order or
 * spacing) has the same hash, and a changed state or fact does not.
 */
export function payloadSha256(text: string, value: unknown): string {
  if (value === undefined) return sha256Hex(text);
  const payload =
    typeof value === "object" && value !== null && !Array.isArray(value) && "submitted_at" in value
      ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== "submitted_at"))
      : value;
  return sha256Hex(canonicalJson(payload));
}

/** The first characters of a work item's text, for a conflict record. */
export function payloadPreview(text: string): string {
  return truncateText(text, CONFLICT_PREVIEW_CHARS);
}

/**
 * JSON with every object's keys in code-unit order, no spaces. Written here (a few lines) rather
 * than taken from a library: no canonical-JSON package is a dependency of the project, and the
 * hash only needs to be stable, not RFC 8785.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
