import { createHash } from "node:crypto";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { compilePolicy } from "./compilePolicy.js";
import { PolicyLoadError, type PolicyProblem } from "./errors.js";
import { findReservedTextIn } from "./findReservedText.js";
import type { Policy } from "./Policy.js";
import { PolicySchema } from "./policySchema.js";
import type { ReportProblem } from "./types.js";
import { locatePath, offsetInScalar, pathAtOffset } from "./yamlPositions.js";

/** Policy files larger than this are refused before parsing (a policy is a page or two of YAML). */
export const POLICY_FILE_MAX_BYTES = 1024 * 1024;

/** Most aliases a policy may expand; YAML alias bombs stop here. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses, validates and compiles one policy from its YAML text.
 *
 * Every problem is collected, then thrown together: YAML syntax errors (a file with syntax errors
 * stops there), duplicate keys, schema problems (unknown or missing fields, wrong types, a
 * fallback that is not an answer), chat-control text (`<|im_start|>`, `</think>`, …) in any string or
 * key, cross-references (a rule setting an undeclared question or an
 * impossible answer) and CEL problems (syntax, types against the declared facts and questions,
 * optional facts read without `has()`), each with file, line, column and field path.
 *
 * @param text the file's content
 * @param file how problems name the file (a path or name)
 * @throws PolicyLoadError with `problems`, and nothing else
 * @example
 * ```ts
 * const policy = parsePolicy(await readFile("policies/ticket-routing.yaml", "utf8"), "policies/ticket-routing.yaml");
 * ```
 */
export function parsePolicy(text: string, file: string): Policy {
  const problems: PolicyProblem[] = [];
  const lineCounter = new LineCounter();
  const at = (offset: number, path: (string | number)[], message: string) => {
    const { line, col } = lineCounter.linePos(offset);
    problems.push({ file, line: Math.max(line, 1), column: Math.max(col, 1), path, message });
  };
  if (Buffer.byteLength(text, "utf8") > POLICY_FILE_MAX_BYTES) {
    throw new PolicyLoadError([
      { file, line: 1, column: 1, path: [], message: `larger than ${POLICY_FILE_MAX_BYTES} bytes` },
    ]);
  }

  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  for (const error of document.errors) {
    if (error.code === "DUPLICATE_KEY") {
      const path = pathAtOffset(document, error.pos[0]);
      at(
        error.pos[0],
        path,
        `duplicate key "${String(path.at(-1) ?? text.slice(...error.pos))}": ${firstLine(error.message)}`,
      );
    } else {
      // The tree around a syntax error is whatever the parser salvaged: give its position, not a field path.
      at(error.pos[0], [], `YAML syntax error: ${firstLine(error.message)}`);
    }
  }
  // Duplicate keys leave a well-formed tree: keep checking it so all problems come at once.
  if (document.errors.some((error) => error.code !== "DUPLICATE_KEY")) throw new PolicyLoadError(problems);

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    at(0, [], `cannot read the YAML: ${error instanceof Error ? error.message : String(error)}`);
    throw new PolicyLoadError(problems, { cause: error });
  }

  const report: ReportProblem = (path, message, where = {}) => {
    const location = locatePath(document, path, where.key);
    const offset =
      where.celIndex !== undefined && location.scalar !== undefined
        ? offsetInScalar(text, location.scalar, where.celIndex)
        : location.offset;
    at(offset, path, message);
  };

  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const found =
      value === null || value === undefined
        ? "the file is empty"
        : `found ${Array.isArray(value) ? "a list" : typeof value}`;
    at(0, [], `a policy is a YAML map (name, version, description, questions, …); ${found}`);
    throw new PolicyLoadError(problems);
  }
  for (const found of findReservedTextIn(value)) {
    report(found.path, `contains the reserved chat-control text ${JSON.stringify(found.token)}`, {
      key: found.key,
    });
  }
  const shape = PolicySchema.safeParse(value);
  if (!shape.success) {
    for (const issue of shape.error.issues.flatMap((item) => flattenIssue(item)))
      reportIssue(issue, value, report);
  }
  const sha256 = createHash("sha256").update(text, "utf8").digest("hex");
  const policy = compilePolicy(value, { file, sha256 }, report);
  if (problems.length > 0 || policy === undefined) {
    if (problems.length === 0) at(0, [], "the policy could not be compiled");
    throw new PolicyLoadError(sortedByPosition(problems));
  }
  return policy;
}

type Issue = z.core.$ZodIssue;

/**
 * A union's own "invalid input" hides the useful problem when only one branch came close (the
 * object form of a fact with a misspelt key): report that branch's issues instead.
 */
function flattenIssue(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
  const near = issue.errors.filter(
    (branch) =>
      !branch.every(
        (inner) =>
          inner.path.length === 0 && (inner.code === "invalid_type" || inner.code === "invalid_value"),
      ),
  );
  const [only] = near;
  if (near.length !== 1 || only === undefined) return [issue];
  return only.flatMap((inner) => flattenIssue({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

function reportIssue(issue: Issue, value: unknown, report: ReportProblem): void {
  const path = issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
  if (issue.code === "unrecognized_keys") {
    for (const key of issue.keys) report([...path, key], `unknown field "${key}"`, { key: true });
    return;
  }
  if (issue.code === "invalid_key") {
    const inner = issue.issues[0]?.message ?? issue.message;
    report(path, `key "${String(path.at(-1))}" ${inner.replace(/^Invalid string: /, "")}`, { key: true });
    return;
  }
  if (issue.code === "invalid_type" && valueAt(value, path) === undefined) {
    report(path, `required field "${String(path.at(-1))}" is missing`);
    return;
  }
  report(path, issue.message);
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let node = value;
  for (const segment of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}

function sortedByPosition(problems: PolicyProblem[]): PolicyProblem[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort(
      (a, b) => a.problem.line - b.problem.line || a.problem.column - b.problem.column || a.index - b.index,
    )
    .map(({ problem }) => problem);
}
