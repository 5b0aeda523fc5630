import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import { stripByteOrderMark } from "../../core/common/stripByteOrderMark.js";
import type { PolicySet } from "../../core/policy/index.js";
import { type BadLine, lineLocation, type PreparedMessage, prepareLine } from "./prepareLine.js";
import type { StreamLine } from "./splitLines.js";
import type { IngestedObject } from "./types.js";

/** Longest line accepted: SQS's largest message (1 MiB); a longer line is a bad line. */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * One line of the object as ingest handles it: its text (a byte order mark dropped from the
 * object's first line, the only one that can start with one) and what it becomes — nothing for
 * a blank line, a bad line for one too long or not valid UTF-8 (its bytes are refused, not
 * replaced), else {@link prepareLine}'s message or bad line.
 */
export function prepareObjectLine(
  line: StreamLine,
  object: IngestedObject,
  policies: PolicySet,
): { text: string; prepared: PreparedMessage | BadLine | undefined } {
  const text = line.line === 1 ? stripByteOrderMark(line.text) : line.text;
  if (!line.tooLong && !line.invalidUtf8 && text.trim() === "") return { text, prepared: undefined };
  const origin = { ...object, line: line.line };
  const unreadable = line.tooLong
    ? `longer than ${MAX_LINE_BYTES} bytes`
    : line.invalidUtf8
      ? "not valid UTF-8 (its bytes are refused, not replaced)"
      : undefined;
  const prepared =
    unreadable !== undefined
      ? ({
          kind: "rejected",
          policy: UNPARSED_POLICY,
          id: "",
          reason: `${lineLocation(origin)}: ${unreadable}`,
        } satisfies BadLine)
      : prepareLine(text, origin, policies);
  return { text, prepared };
}
