/** Marker appended to a text that was cut. */
export const TRUNCATION_MARKER = "…";

/**
 * The text cut to at most `maxChars` code points (never inside a surrogate pair), with
 * {@link TRUNCATION_MARKER} appended when something was cut. Used to keep outcome items bounded.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const codePoints = Array.from(text);
  if (codePoints.length <= maxChars) return text;
  return codePoints.slice(0, Math.max(0, maxChars - 1)).join("") + TRUNCATION_MARKER;
}
