/**
 * The runtime guard behind `findCostlyCel`: one budget per evaluation of a rule or an event
 * mapping, so that an expression the static check let through still cannot exhaust the function
 * (time or memory). cel-js 8 has no evaluation budget of its own (its limits bound parsing), and
 * its evaluator is synchronous, so the guard sits on the nodes of the parsed expression: cel-js
 * evaluates every node of the source through the node's `evaluate`, including the bodies of
 * comprehensions and `cel.bind`, so a wrapper on each counts the steps, reads the clock and checks
 * the size of each value produced. A list or string over the size limit is refused right after it
 * is built (at most one concatenation past the limit), before anything builds on it.
 */
import type { ASTNode, ParseResult } from "@marcbachmann/cel-js";
import { CelBudgetError } from "./errors.js";
import type { CelProgram } from "./Policy.js";

/** Budget of one evaluation. */
export interface CelBudget {
  /** Most wall-clock time, in milliseconds. Default 250. */
  timeMs: number;
  /** Most elements of one list or entries of one map. Default 65,536. */
  maxElements: number;
  /** Most UTF-16 code units of one string. Default 1,048,576 (four times an SQS message). */
  maxStringLength: number;
  /** Most nodes evaluated. Default 1,000,000. */
  maxSteps: number;
}

/**
 * The default budget: far above what a rule the static check accepts needs on the largest facts
 * (a few milliseconds on 1,000 tags), far below a Lambda's timeout and memory.
 */
export const DEFAULT_CEL_BUDGET: Readonly<CelBudget> = {
  timeMs: 250,
  maxElements: 65_536,
  maxStringLength: 1_048_576,
  maxSteps: 1_000_000,
};

/** How many steps between two readings of the clock (a reading costs about as much as a step). */
const CLOCK_EVERY = 64;

interface Meter {
  steps: number;
  deadline: number;
}

type Evaluate = (evaluator: unknown, ast: ASTNode, context: unknown) => unknown;

/**
 * `parsed` as a program that evaluates within `budget`: past the budget it throws a
 * {@link CelBudgetError} saying which limit and where, which the caller turns into a `rejected`
 * outcome naming the rule (the decide step already rejects an item whose rule throws).
 *
 * @param parsed an expression from `environment.parse`, type-checked
 * @param budget default {@link DEFAULT_CEL_BUDGET}
 */
export function guardCelProgram(
  parsed: ParseResult,
  budget: Readonly<CelBudget> = DEFAULT_CEL_BUDGET,
): CelProgram {
  const meter: Meter = { steps: 0, deadline: 0 };
  for (const node of nodesOf(parsed.ast)) instrument(node, meter, budget);
  return (context) => {
    meter.steps = 0;
    meter.deadline = performance.now() + budget.timeMs;
    return parsed(context);
  };
}

function instrument(node: ASTNode, meter: Meter, budget: Readonly<CelBudget>): void {
  const original = (node as unknown as { evaluate: Evaluate }).evaluate;
  // cel-js resolves a node's evaluation on its first call and stores it on the node; the accessor
  // keeps what it stores and always hands out the metered wrapper.
  let resolved: Evaluate | undefined;
  const metered: Evaluate = function (this: ASTNode, evaluator, ast, context) {
    if (resolved === undefined) return original.call(this, evaluator, ast, context);
    meter.steps += 1;
    if (meter.steps > budget.maxSteps) throw new CelBudgetError(`more than ${budget.maxSteps} steps`, node);
    if (meter.steps % CLOCK_EVERY === 0 && performance.now() > meter.deadline) {
      throw new CelBudgetError(`more than ${budget.timeMs} ms`, node);
    }
    const value = resolved.call(this, evaluator, ast, context);
    checkSize(value, node, budget);
    return value;
  };
  Object.defineProperty(node, "evaluate", {
    configurable: true,
    get: () => metered,
    set: (value: Evaluate) => {
      resolved = value;
    },
  });
}

function checkSize(value: unknown, node: ASTNode, budget: Readonly<CelBudget>): void {
  if (typeof value === "string") {
    if (value.length > budget.maxStringLength) {
      throw new CelBudgetError(
        `a string of ${value.length} characters (at most ${budget.maxStringLength})`,
        node,
      );
    }
  } else if (Array.isArray(value)) {
    if (value.length > budget.maxElements) {
      throw new CelBudgetError(`a list of ${value.length} elements (at most ${budget.maxElements})`, node);
    }
  } else if (value instanceof Map || value instanceof Set) {
    if (value.size > budget.maxElements) {
      throw new CelBudgetError(`a map of ${value.size} entries (at most ${budget.maxElements})`, node);
    }
  }
}

/** Every node of an expression's source. */
function nodesOf(root: ASTNode): ASTNode[] {
  const nodes: ASTNode[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) collect(item);
    } else if (typeof value === "object" && value !== null && "op" in value && "args" in value) {
      const node = value as ASTNode;
      nodes.push(node);
      if (node.op !== "value" && node.op !== "id") collect(node.args);
    }
  };
  collect(root);
  return nodes;
}
