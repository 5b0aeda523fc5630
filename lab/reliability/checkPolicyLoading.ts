/**
 * The policy loader under arbitrary and adversarial files: a property run with fast-check, sized by
 * the caller. A file either loads, or fails with a {@link PolicyLoadError} whose every problem names
 * the file, a line and column inside it, and the field.
 */
import { type ASTNode, parse } from "@marcbachmann/cel-js";
import fc from "fast-check";
import { type Policy, PolicyLoadError, parsePolicy } from "../../core/policy/index.js";
import { type PolicyCase, policyCaseArbitrary } from "./policyTexts.js";

/** Options of {@link checkPolicyLoading}. */
export interface CheckPolicyLoadingOptions {
  /** Cases to generate. Default 300. */
  numRuns?: number;
  /** fast-check seed. Default: fast-check's (printed on failure). */
  seed?: number;
}

/** What a run checked. */
export interface PolicyLoadingReport {
  cases: number;
  loaded: number;
  refused: number;
}

const FILE = "policies/adversarial.yaml";

/** CEL variables a rule may read: the declared facts and answers, and the model's own view of them. */
const RULE_VARIABLES = new Set(["facts", "answers", "model", "confidence", "scores"]);

/**
 * Why the outcome of loading `policyCase` breaks the loader's contract, or `undefined` when it holds.
 * `result` is the policy or what `parsePolicy` threw.
 */
export function policyLoadingProblem(policyCase: PolicyCase, result: Policy | unknown): string | undefined {
  const lines = policyCase.text.split("\n").length;
  if (!(result instanceof PolicyLoadError)) {
    if (result instanceof Error) return `threw ${result.name}: ${result.message.slice(0, 200)}`;
    if (policyCase.reservedAt !== undefined)
      return `loaded with chat-control text at ${policyCase.reservedAt.join(".")}`;
    const policy = result as Policy;
    for (const rule of policy.rules) {
      const outside = [...variablesRead(parse(rule.when).ast)].filter((name) => !RULE_VARIABLES.has(name));
      if (outside.length > 0) return `loaded a rule that reads ${outside.join(", ")}`;
    }
    return undefined;
  }
  if (result.problems.length === 0) return "a PolicyLoadError without problems";
  for (const problem of result.problems) {
    if (problem.file !== FILE) return `a problem naming file ${JSON.stringify(problem.file)}`;
    if (!Number.isInteger(problem.line) || problem.line < 1 || problem.line > lines)
      return `a problem at line ${problem.line} of a ${lines}-line file`;
    if (!Number.isInteger(problem.column) || problem.column < 1)
      return `a problem at column ${problem.column}`;
    if (!Array.isArray(problem.path)) return "a problem without a field path";
    if (typeof problem.message !== "string" || problem.message.trim() === "")
      return "a problem without a message";
  }
  if (policyCase.reservedAt !== undefined) {
    const named = result.problems.some(
      (problem) =>
        /chat-control/.test(problem.message) && samePath(problem.path, policyCase.reservedAt ?? []),
    );
    if (!named) {
      return `chat-control text at ${policyCase.reservedAt.join(".")} not named: ${result.problems
        .map((problem) => `${problem.path.join(".")}: ${problem.message}`)
        .join("; ")
        .slice(0, 300)}`;
    }
  }
  return undefined;
}

/** The free variables an expression reads (comprehension variables excluded). */
function variablesRead(node: ASTNode, bound: ReadonlySet<string> = new Set()): Set<string> {
  const found = new Set<string>();
  if (node.op === "id") {
    const name = String(node.args);
    if (!bound.has(name)) found.add(name);
    return found;
  }
  if (node.op === "value") return found;
  let inner = bound;
  if (node.op === "rcall") {
    const [, , args] = node.args as unknown as [string, ASTNode, ASTNode[]];
    const [first] = args;
    if (first?.op === "id") inner = new Set([...bound, String(first.args)]);
  }
  const visit = (value: unknown, names: ReadonlySet<string>): void => {
    if (Array.isArray(value)) for (const item of value) visit(item, names);
    else if (typeof value === "object" && value !== null && "op" in value) {
      for (const name of variablesRead(value as ASTNode, names)) found.add(name);
    }
  };
  visit(node.args, inner);
  return found;
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((segment, index) => String(segment) === String(b[index]));
}

/**
 * Runs the policy-loading property over `numRuns` generated files.
 *
 * @throws the fast-check failure (counterexample and seed) when a case breaks it
 */
export function checkPolicyLoading(options: CheckPolicyLoadingOptions = {}): PolicyLoadingReport {
  const report: PolicyLoadingReport = { cases: 0, loaded: 0, refused: 0 };
  fc.assert(
    fc.property(policyCaseArbitrary(), (policyCase) => {
      let result: unknown;
      try {
        result = parsePolicy(policyCase.text, FILE);
      } catch (error) {
        result = error;
      }
      const problem = policyLoadingProblem(policyCase, result);
      if (problem !== undefined) throw new Error(`${problem} [${policyCase.origin}]`);
      report.cases += 1;
      if (result instanceof PolicyLoadError) report.refused += 1;
      else report.loaded += 1;
    }),
    { numRuns: options.numRuns ?? 300, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
  );
  return report;
}
