import { formatPath } from "./errors.js";
import type { Policy } from "./Policy.js";
import type { FactsCheck } from "./types.js";

/**
 * Checks a work item's facts against the facts its policy declares.
 *
 * Absent facts (`undefined`) count as `{}`. Each fact must have its declared type (and be one of
 * its enum values); required facts must be present; optional facts with a default get it; facts
 * the policy does not declare are rejected (a typo must not silently disable a rule), `__proto__`
 * included. Pass the facts as parsed from the JSON text, not as a schema returned them (zod's
 * records drop a `__proto__` key).
 *
 * @returns `{ok: true, facts}` with defaults applied, or `{ok: false, reason, path, issues}`
 *   (path inside the facts, e.g. `["tags", 2]`). Never throws.
 * @example
 * ```ts
 * const check = checkFacts(policy, item.facts);
 * if (!check.ok) reject(`facts: ${check.reason}`);
 * ```
 */
export function checkFacts(policy: Policy, facts: unknown): FactsCheck {
  // zod's records and objects skip an own "__proto__" key (JSON.parse makes one), so the check
  // would pass with the key silently dropped; no policy can declare it.
  const proto =
    typeof facts === "object" && facts !== null && Object.hasOwn(facts, "__proto__")
      ? [
          {
            path: ["__proto__"],
            message: `"__proto__" is not a fact this policy declares (${declared(policy)})`,
          },
        ]
      : [];
  const result = policy.factsSchema.safeParse(facts === undefined ? {} : facts);
  if (result.success && proto.length === 0) return { ok: true, facts: result.data };
  const zodIssues = result.success ? [] : result.error.issues;
  const issues = [
    ...proto,
    ...zodIssues.flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => ({
            path: [...issue.path, key] as (string | number)[],
            message: `"${key}" is not a fact this policy declares (${declared(policy)})`,
          }))
        : [{ path: issue.path as (string | number)[], message: messageOf(issue, facts) }],
    ),
  ];
  const reason = issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${formatPath(issue.path)}: ${issue.message}`))
    .join("; ");
  return { ok: false, reason, path: issues[0]?.path ?? [], issues };
}

/** zod says "expected string, received undefined" for a missing fact; say it is required. */
function messageOf(issue: { code: string; path: PropertyKey[]; message: string }, facts: unknown): string {
  const [name] = issue.path;
  const present =
    typeof facts === "object" && facts !== null && name !== undefined && Object.hasOwn(facts, name);
  return issue.code === "invalid_type" && issue.path.length === 1 && !present ? "is required" : issue.message;
}

function declared(policy: Policy): string {
  const names = Object.keys(policy.facts);
  return names.length === 0 ? "none" : names.join(", ");
}
