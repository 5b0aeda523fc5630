/** The Unicode byte order mark as JavaScript reads it from UTF-8 (EF BB BF) or UTF-16. */
export const BYTE_ORDER_MARK = "\uFEFF";

/**
 * The text without a leading byte order mark. Producers on Windows (Notepad, PowerShell's
 * `Out-File`, Excel's "CSV UTF-8") write one at the start of a file or message; JSON forbids it,
 * so without this the first line of such a file, or such a message body, would be refused as
 * invalid JSON. Every input path (ingest's first line, an SQS body, `decisions submit`) strips it
 * the same way; a mark anywhere else is left as it is.
 */
export function stripByteOrderMark(text: string): string {
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(BYTE_ORDER_MARK.length) : text;
}
