/** One step of a field path: an object key or an array index. */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/**
 * Formats a field path the way problems name fields: `decision.options[2].id`,
 * `questions.priority.criteria`, `state["odd key"]`. The empty path is `body`.
 */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  if (segments.length === 0) return "body";
  let text = "";
  for (const segment of segments) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
