import type { z } from "zod";
import type { RepeatParams } from "./requestSchemaParts.js";
import type { JsonPathSegment } from "./types.js";

/** One thing wrong with a request, at its path in the caller's body. */
export interface WireProblem {
  path: JsonPathSegment[];
  message: string;
}

/**
 * Turns a request schema's issues into problems in the caller's terms, all of them:
 * an unsupported field is named at its own path; a union (`criteria` as a list or a map) reports
 * the problems of the branch whose type fits, not every branch's; an invalid map key is named at
 * the key; a repeated id adds where it was first used, formatted by `formatPath`.
 *
 * @param formatPath how paths are written in messages (the server's `decision.options[0].id`).
 */
export function problemsOf(
  issues: readonly z.core.$ZodIssue[],
  formatPath: (path: readonly JsonPathSegment[]) => string,
  prefix: readonly JsonPathSegment[] = [],
): WireProblem[] {
  const problems: WireProblem[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path as JsonPathSegment[])];
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) problems.push({ path: [...path, key], message: issue.message });
        break;
      case "invalid_key":
        problems.push(...problemsOf(issue.issues, formatPath, path));
        break;
      case "invalid_union": {
        const fitting = issue.errors.filter((branch) => !branch.some(isRootTypeMismatch));
        const [only, second] = fitting;
        if (only !== undefined && second === undefined) problems.push(...problemsOf(only, formatPath, path));
        else problems.push({ path, message: issue.message });
        break;
      }
      case "custom": {
        const first = (issue.params as Partial<RepeatParams> | undefined)?.first;
        const message =
          first === undefined
            ? issue.message
            : `${issue.message} (first at ${formatPath([...path.slice(0, path.length - first.length), ...first])})`;
        problems.push({ path, message });
        break;
      }
      default:
        problems.push({ path, message: issue.message });
    }
  }
  return problems;
}

function isRootTypeMismatch(issue: z.core.$ZodIssue): boolean {
  if (issue.path.length > 0) return false;
  if (issue.code === "invalid_type") return true;
  return (
    issue.code === "custom" && (issue.params as { typeMismatch?: boolean } | undefined)?.typeMismatch === true
  );
}
