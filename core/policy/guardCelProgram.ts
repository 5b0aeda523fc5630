/**
 * The runtime guard behind `findCostlyCel`: one budget per evaluation of a rule or an event
 * mapping, so that an expression the static check let through still cannot exhaust the function
 * (time or memory). cel-js 8 has no evaluation budget of its own (its limits bound parsing), and
 * its evaluator is synchronous, so the guard sits on the nodes of the parsed expression: cel-js
 * evaluates every node of the source through the node's `evaluate`, including the bodies of
 * comprehensions and `cel.bind`, so a wrapper on each counts the steps, reads the clock and checks
 * the size of each value produced. A list or string over the size limit is refused right after it
 * is built, before anything builds on it; a concatenation (`+`) and `join` are refused before they
 * build it, from their operands' sizes (a `join` with a long separator would otherwise build its
 * whole result first: 200,000,000 characters for `facts.t.join(facts.s)` on large facts).
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

/** cel-js's handler of a `+` or method call, set on the node when it is type-checked. */
type Handle = (...args: unknown[]) => unknown;

function instrument(node: ASTNode, meter: Meter, budget: Readonly<CelBudget>): void {
  if (node.op === "+") {
    // handle(left, right, ast, evaluator): both operands are evaluated, the result not yet built.
    guardHandle(node, (left, right) => checkPlanned(concatenated(left, right), node, budget));
  } else if (node.op === "rcall" && (node.args as unknown as [unknown])[0] === "join") {
    // handle([receiver, ...args], evaluator, ast)
    guardHandle(node, (values) => {
      const [list, separator] = values as [unknown, unknown];
      checkPlanned(joined(list, separator), node, budget);
    });
  }

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

/**
 * Runs `before` on the arguments of the node's cel-js handler before the handler: the handler is
 * set when the expression is type-checked (before or at its first evaluation), so the accessor
 * wraps whatever is stored, as for `evaluate`.
 */
function guardHandle(node: ASTNode, before: (...args: unknown[]) => void): void {
  const wrap = (handle: Handle | undefined): Handle | undefined =>
    handle === undefined
      ? undefined
      : function (this: unknown, ...args: unknown[]) {
          before(...args);
          return handle.apply(this, args);
        };
  let guarded = wrap((node as unknown as { handle?: Handle }).handle);
  Object.defineProperty(node, "handle", {
    configurable: true,
    get: () => guarded,
    set: (value: Handle) => {
      guarded = wrap(value);
    },
  });
}

/** The kind and length of a string or list that is about to be built. */
interface Planned {
  kind: "string" | "list";
  length: number;
}

/** What `left + right` would build: strings and lists only (numbers add to a scalar). */
function concatenated(left: unknown, right: unknown): Planned | undefined {
  if (typeof left === "string" && typeof right === "string") {
    return { kind: "string", length: left.length + right.length };
  }
  if (Array.isArray(left) && Array.isArray(right))
    return { kind: "list", length: left.length + right.length };
  return undefined;
}

/** What `list.join(separator)` would build: the elements and the separator between each two. */
function joined(list: unknown, separator: unknown): Planned | undefined {
  if (!Array.isArray(list)) return undefined;
  let length = typeof separator === "string" ? Math.max(0, list.length - 1) * separator.length : 0;
  for (const item of list) if (typeof item === "string") length += item.length;
  return { kind: "string", length };
}

/** Throws when a string or list about to be built is over the budget. */
function checkPlanned(planned: Planned | undefined, node: ASTNode, budget: Readonly<CelBudget>): void {
  if (planned === undefined) return;
  if (planned.kind === "string" && planned.length > budget.maxStringLength) {
    throw new CelBudgetError(
      `a string of ${planned.length} characters (at most ${budget.maxStringLength})`,
      node,
    );
  }
  if (planned.kind === "list" && planned.length > budget.maxElements) {
    throw new CelBudgetError(`a list of ${planned.length} elements (at most ${budget.maxElements})`, node);
  }
}

/** Throws when a value just built is over the budget. */
function checkSize(value: unknown, node: ASTNode, budget: Readonly<CelBudget>): void {
  if (typeof value === "string") checkPlanned({ kind: "string", length: value.length }, node, budget);
  else if (Array.isArray(value)) checkPlanned({ kind: "list", length: value.length }, node, budget);
  else if ((value instanceof Map || value instanceof Set) && value.size > budget.maxElements) {
    throw new CelBudgetError(`a map of ${value.size} entries (at most ${budget.maxElements})`, node);
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
