/**
 * Errors of the policy module. Callers decide by class: a {@link PolicyLoadError} is a deployment
 * problem (the function cannot start with these policies); an {@link EventMappingError} is a
 * permanent problem of one event (reject it, never retry).
 */

/** One problem found in a policy file, positioned so an editor can jump to it. */
export interface PolicyProblem {
  /** The file as given to the loader (path or name). */
  file: string;
  /** 1-based line of the offending node (1 for problems of the whole file). */
  line: number;
  /** 1-based column of the offending node (1 for problems of the whole file). */
  column: number;
  /** Field path inside the document, e.g. `["questions", "queue", "fallback"]`; `[]` for the whole file. */
  path: (string | number)[];
  /** What is wrong, written for the policy's author. */
  message: string;
}

/**
 * One or more policy files are invalid. Carries every problem found (all files, all fields), not
 * only the first, so an author fixes them in one pass.
 *
 * @example
 * ```ts
 * try { await loadPolicies("policies"); }
 * catch (error) {
 *   if (error instanceof PolicyLoadError) for (const p of error.problems) console.error(formatPolicyProblem(p));
 * }
 * ```
 */
export class PolicyLoadError extends Error {
  override readonly name = "PolicyLoadError";
  /** Every problem found, in file then document order. */
  readonly problems: readonly PolicyProblem[];

  constructor(problems: readonly PolicyProblem[], options?: { cause?: unknown }) {
    // Every problem is listed: the author fixes them in one pass, and CI logs show them all.
    const shown = problems.map(formatPolicyProblem).join("\n  ");
    const files = new Set(problems.map((problem) => problem.file)).size;
    const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
    super(`Invalid polic${files === 1 ? "y" : "ies"}: ${count}\n  ${shown}`, options);
    this.problems = problems;
  }
}

/**
 * A policy's event mapping matched an event but could not turn it into a work item (a CEL error,
 * an id that is not a non-empty string, a value that is not JSON). Permanent for that event.
 */
export class EventMappingError extends Error {
  override readonly name = "EventMappingError";
  /** The policy whose mapping matched. */
  readonly policy: string;
  /** The mapping's field that failed: `"id"`, `"state"` or `"facts"`. */
  readonly field: "id" | "state" | "facts";
  /** Why, without the prefix the message adds. */
  readonly reason: string;

  constructor(
    policy: string,
    field: "id" | "state" | "facts",
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Policy "${policy}" could not map the event (${field}): ${reason}`, options);
    this.policy = policy;
    this.field = field;
    this.reason = reason;
  }
}

/**
 * A CEL expression ran past its evaluation budget (time, steps, or the size of a value it built):
 * see `guardCelProgram`. The decide step turns it into a `rejected` outcome naming the rule.
 */
export class CelBudgetError extends Error {
  override readonly name = "CelBudgetError";
  /** Which limit: `more than 250 ms`, `a list of 70000 elements (at most 65536)`. */
  readonly limit: string;
  /** Where in the expression's source, 0-based UTF-16 offsets. */
  readonly range: { start: number; end: number };

  constructor(limit: string, node: { input: string; start: number; end: number }) {
    const excerpt = node.input.slice(node.start, node.end);
    super(
      `the expression ran past its evaluation budget: ${limit} at \`${excerpt.length > 60 ? `${excerpt.slice(0, 57)}…` : excerpt}\``,
    );
    this.limit = limit;
    this.range = { start: node.start, end: node.end };
  }
}

/**
 * `file:line:column path: message`, the form editors and CI logs recognise.
 *
 * @example `formatPolicyProblem(p)` → `policies/x.yaml:12:7 rules[0].when: No such key: tier`
 */
export function formatPolicyProblem(problem: PolicyProblem): string {
  const where = problem.path.length === 0 ? "" : ` ${formatPath(problem.path)}`;
  return `${problem.file}:${problem.line}:${problem.column}${where}: ${problem.message}`;
}

/** `["rules", 0, "when"]` → `rules[0].when`. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = "";
  for (const segment of path) {
    text += typeof segment === "number" ? `[${segment}]` : text === "" ? segment : `.${segment}`;
  }
  return text;
}
