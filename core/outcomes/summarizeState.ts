import { STATE_PREVIEW_CHARS } from "../../contract/outcome/outcomeLimits.js";
import { sha256Hex } from "../common/sha256Hex.js";
import { truncateText } from "../common/truncateText.js";

/** What an outcome keeps of a state: its hash, size and a bounded preview. */
export interface StateSummary {
  state_sha256: string;
  state_bytes: number;
  state_preview: string;
}

/**
 * Summarises a state's text as written by the producer: SHA-256 and UTF-8 size of the exact text,
 * and its first `previewChars` code points (default {@link STATE_PREVIEW_CHARS}), so an outcome
 * identifies its state without holding it.
 */
export function summarizeState(stateText: string, previewChars: number = STATE_PREVIEW_CHARS): StateSummary {
  return {
    state_sha256: sha256Hex(stateText),
    state_bytes: Buffer.byteLength(stateText, "utf8"),
    state_preview: truncateText(stateText, previewChars),
  };
}
