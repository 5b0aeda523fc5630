import { truncateText } from "../../core/common/truncateText.js";
import { BODY_PREVIEW_CHARS } from "./constants.js";

/** What a queued message's body is, as far as it can be read. */
export interface BodySummary {
  /** `item` (a work item), `event` (an EventBridge event), `json` (other JSON) or `text` (not JSON). */
  kind: "item" | "event" | "json" | "text";
  /** A work item's policy. */
  policy?: string;
  /** A work item's or an event's id. */
  id?: string;
  /** An event's `source` and `detail-type`. */
  event?: { source: string; detailType: string };
  /** The body on one line, cut to {@link BODY_PREVIEW_CHARS} characters. */
  preview: string;
  /** UTF-8 size of the body. */
  bytes: number;
}

/**
 * Reads what a message body is for a listing: a work item (`policy`, `id`), an EventBridge event
 * (`source`, `detail-type`, `id`), other JSON, or text; with a one-line preview. Never throws.
 */
export function describeMessageBody(body: string): BodySummary {
  const summary = {
    preview: truncateText(body.replace(/\s*\n\s*/g, " "), BODY_PREVIEW_CHARS),
    bytes: Buffer.byteLength(body, "utf8"),
  };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // Not JSON: the listing shows it as text.
    return { kind: "text", ...summary };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { kind: "json", ...summary };
  const fields = value as Record<string, unknown>;
  const id = typeof fields.id === "string" ? { id: fields.id } : {};
  if (typeof fields.source === "string" && typeof fields["detail-type"] === "string") {
    return {
      kind: "event",
      ...id,
      event: { source: fields.source, detailType: fields["detail-type"] },
      ...summary,
    };
  }
  if (typeof fields.policy === "string") return { kind: "item", policy: fields.policy, ...id, ...summary };
  return { kind: "json", ...id, ...summary };
}
