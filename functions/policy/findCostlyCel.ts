/**
 * Static check that a CEL expression's evaluation stays cheap. cel-js bounds an expression's size
 * (AST nodes, depth, literal lengths) but not its evaluation: measured on cel-js 8.0.0, three
 * nested `all()` over a 300-item fact list took 6 s; `matches()` runs a JavaScript regular
 * expression, which can backtrack exponentially (`'^(a+)+$'` on 28 `a`s and a `!`: 17 s); a
 * 555-character rule of nested `cel.bind`s, each concatenating its list eight ways, took 8.2 s and
 * 1.4 GB; `facts.tags.all(t, t in facts.tags)` is quadratic. A rule runs for every item, with facts
 * the producer chose, so the loader refuses what it cannot bound.
 *
 * The bound: every value's size and every node's cost is bounded by `c·N^d`, N the size of the
 * largest input (a fact, an answer, the event). A fact read is `N`; `a + b` has the sum of the
 * sizes and costs their sum; `x in list` costs the list's size; a comprehension costs its list's
 * size times its body's cost; `cel.bind(v, init, body)` gives `v` the size of `init`. An expression
 * is accepted when its cost and the size of each value are at most linear (d ≤ 1) with small
 * coefficients ({@link MAX_SIZE_FACTOR}, {@link MAX_COST_FACTOR}); a function the check does not
 * know is refused, since its cost cannot be bounded. The runtime guard (`guardCelProgram`) backs
 * this up at evaluation. No library does this analysis; it is a walk over cel-js's AST like
 * `findUnguardedFacts`.
 */
import type { ASTNode } from "@marcbachmann/cel-js";

/** CEL's comprehension macros: each evaluates its body once per element. */
const COMPREHENSIONS = new Set(["all", "exists", "exists_one", "map", "filter"]);

/** Functions whose result is a scalar (a number, a bool, a type, a time). */
const SCALAR_FUNCTIONS = new Set([
  "size",
  "contains",
  "startsWith",
  "endsWith",
  "indexOf",
  "lastIndexOf",
  "int",
  "uint",
  "double",
  "bool",
  "has",
  "type",
  "timestamp",
  "duration",
  "at",
]);

/** Functions whose result is at most about as large as their arguments together (×2 for hex). */
const LINEAR_FUNCTIONS = new Set([
  "string",
  "bytes",
  "dyn",
  "lowerAscii",
  "upperAscii",
  "trim",
  "substring",
  "split",
  "join",
  "json",
  "base64",
  "hex",
]);

/** Most a value may grow relative to the largest input: `a + a + a + a` is 4. */
export const MAX_SIZE_FACTOR = 16;

/** Most work an expression may do relative to the largest input: a few passes over each list. */
export const MAX_COST_FACTOR = 256;

/** A costly construct found, with its range in the CEL source. */
export interface CostlyCel {
  message: string;
  start: number;
  end: number;
}

/**
 * A polynomial upper bound in the input size N ≥ 1: `coefficients[d]` multiplies `N^d`. Constant
 * work (a chain of negations) is bounded by cel-js's AST limits; only the terms in N are limited.
 */
type Bound = readonly number[];

/** Degrees kept: anything above 1 is refused, so 2 stands for "2 or more". */
const DEGREES = 3;

const ONE: Bound = [1];
const INPUT: Bound = [0, 1];
const coefficient = (bound: Bound, degree: number): number => bound[degree] ?? 0;
const add = (...bounds: Bound[]): Bound =>
  Array.from({ length: DEGREES }, (_, d) => bounds.reduce((sum, bound) => sum + coefficient(bound, d), 0));
const scale = (factor: number, bound: Bound): Bound => bound.map((c) => c * factor);
const times = (a: Bound, b: Bound): Bound =>
  Array.from({ length: DEGREES }, (_, d) => {
    let sum = 0;
    for (let i = 0; i <= d; i += 1) sum += coefficient(a, i) * coefficient(b, d - i);
    // Terms of higher degree than kept are folded into the highest kept one.
    if (d === DEGREES - 1) {
      for (let i = 0; i < DEGREES; i += 1) {
        for (let j = DEGREES - i; j < DEGREES; j += 1) sum += coefficient(a, i) * coefficient(b, j);
      }
    }
    return sum;
  });
const most = (...bounds: Bound[]): Bound =>
  Array.from({ length: DEGREES }, (_, d) => Math.max(0, ...bounds.map((bound) => coefficient(bound, d))));
/** Highest degree with a non-zero coefficient. */
const degreeOf = (bound: Bound): number => {
  for (let d = DEGREES - 1; d > 0; d -= 1) if (coefficient(bound, d) > 0) return d;
  return 0;
};

/** A node's bounds: the size of its value and the cost of evaluating it. */
interface Bounds {
  size: Bound;
  cost: Bound;
}

/**
 * Every construct whose evaluation cannot be bounded: a comprehension nested in another's body,
 * `matches()`, a value that can grow more than linearly or more than {@link MAX_SIZE_FACTOR}-fold
 * (concatenations through `cel.bind`), an expression whose cost is more than linear (`in` on a
 * list inside a comprehension) or more than {@link MAX_COST_FACTOR} passes over its input, and a
 * function the check does not know, in source order.
 *
 * @param ast a parsed expression (`env.parse(src).ast`)
 */
export function findCostlyCel(ast: ASTNode): CostlyCel[] {
  const found: CostlyCel[] = [];
  new CostWalk(found).visit(ast, new Map(), false);
  return found.sort((a, b) => a.start - b.start);
}

class CostWalk {
  /** Whether a size or cost bound was already exceeded: one such report per expression is enough. */
  private exceeded = false;

  constructor(private readonly found: CostlyCel[]) {}

  visit(node: ASTNode, scope: ReadonlyMap<string, Bound>, inComprehension: boolean): Bounds {
    const before = this.found.length;
    const bounds = this.bounds(node, scope, inComprehension);
    // A construct is reported at the smallest node that exceeds a bound, not again at those above.
    // A variable's size was checked where it was bound.
    if (this.found.length === before && !this.exceeded && node.op !== "id") this.check(node, bounds);
    return bounds;
  }

  private report(node: ASTNode, message: string): void {
    this.found.push({ message, start: node.start, end: node.end });
  }

  private check(node: ASTNode, { size, cost }: Bounds): void {
    const source = node.input.slice(node.start, node.end);
    const shown = source.length > 60 ? `${source.slice(0, 57)}…` : source;
    const sizeFactor = coefficient(size, 1);
    const costFactor = coefficient(cost, 1);
    if (degreeOf(size) > 1 || sizeFactor > MAX_SIZE_FACTOR) {
      this.exceeded = true;
      this.report(
        node,
        `\`${shown}\` can build a value ${degreeOf(size) > 1 ? "that grows with the square of its input" : `${sizeFactor} times as large as its input`} (at most ${MAX_SIZE_FACTOR}); concatenating a list or string with itself, directly or through cel.bind, multiplies its size`,
      );
    } else if (degreeOf(cost) > 1 || costFactor > MAX_COST_FACTOR) {
      this.exceeded = true;
      this.report(
        node,
        `\`${shown}\` costs ${degreeOf(cost) > 1 ? "the product of its lists' lengths" : `${costFactor} passes over its input`} (at most linear, ${MAX_COST_FACTOR} passes); \`in\` on a list, a concatenation or a comparison of lists inside a comprehension runs once per element`,
      );
    }
  }

  private bounds(node: ASTNode, scope: ReadonlyMap<string, Bound>, inComprehension: boolean): Bounds {
    const visit = (child: ASTNode, childScope = scope, nested = inComprehension) =>
      this.visit(child, childScope, nested);
    const args = node.args as unknown;
    switch (node.op) {
      case "value":
        return { size: ONE, cost: ONE };
      case "id":
        // A bound or iteration variable has its value's size; a root variable is an input.
        return { size: scope.get(args as string) ?? INPUT, cost: ONE };
      case ".":
      case ".?": {
        const [target] = args as [ASTNode, string];
        const inner = visit(target);
        return { size: inner.size, cost: add(inner.cost, ONE) };
      }
      case "+": {
        const [left, right] = (args as ASTNode[]).map((child) => visit(child)) as [Bounds, Bounds];
        return {
          size: add(left.size, right.size),
          cost: add(left.cost, right.cost, left.size, right.size),
        };
      }
      case "in":
      case "==":
      case "!=": {
        // Membership scans the list; equality compares lists and maps element by element.
        const [left, right] = (args as ASTNode[]).map((child) => visit(child)) as [Bounds, Bounds];
        return { size: ONE, cost: add(left.cost, right.cost, left.size, right.size) };
      }
      case "?:": {
        const [condition, yes, no] = (args as ASTNode[]).map((child) => visit(child)) as [
          Bounds,
          Bounds,
          Bounds,
        ];
        return { size: most(yes.size, no.size), cost: add(condition.cost, yes.cost, no.cost) };
      }
      case "list": {
        const items = (args as ASTNode[]).map((child) => visit(child));
        return {
          size: add(ONE, ...items.map((item) => item.size)),
          cost: add(ONE, ...items.map((item) => item.cost)),
        };
      }
      case "map": {
        const entries = (args as [ASTNode, ASTNode][]).flatMap((entry) => entry.map((child) => visit(child)));
        return {
          size: add(ONE, ...entries.map((entry) => entry.size)),
          cost: add(ONE, ...entries.map((entry) => entry.cost)),
        };
      }
      case "call":
        return this.call(node, undefined, (args as [string, ASTNode[]])[1], scope, inComprehension);
      case "rcall": {
        const [, receiver, callArgs] = args as [string, ASTNode, ASTNode[]];
        return this.call(node, receiver, callArgs, scope, inComprehension);
      }
      default: {
        // Arithmetic, comparisons, logic, negation, indexing: scalar results (an index gives an
        // element, no larger than its list), cost the sum of the operands'.
        const children = childrenOf(node).map((child) => visit(child));
        const indexed = node.op === "[]" || node.op === "[?]";
        return {
          size: indexed ? (children[0]?.size ?? ONE) : ONE,
          cost: add(ONE, ...children.map((child) => child.cost)),
        };
      }
    }
  }

  private call(
    node: ASTNode,
    receiver: ASTNode | undefined,
    args: ASTNode[],
    scope: ReadonlyMap<string, Bound>,
    inComprehension: boolean,
  ): Bounds {
    const name = calledName(node) ?? "";
    if (name === "matches") {
      this.report(
        node,
        "matches() is not allowed: JavaScript regular expressions can take exponential time on some inputs; use startsWith, endsWith or contains",
      );
      return { size: ONE, cost: ONE };
    }
    if (name === "bind" && receiver?.op === "id" && receiver.args === "cel") {
      const [variable, init, body] = args as [ASTNode, ASTNode, ASTNode];
      const value = this.visit(init, scope, inComprehension);
      const inner = this.visit(
        body,
        new Map(scope).set(variable.args as string, value.size),
        inComprehension,
      );
      return { size: inner.size, cost: add(value.cost, inner.cost) };
    }
    if (receiver !== undefined && COMPREHENSIONS.has(name)) {
      if (inComprehension) {
        this.report(
          node,
          `${name}() inside another comprehension is not allowed: its cost is the product of the lists' lengths`,
        );
      }
      const list = this.visit(receiver, scope, inComprehension);
      const [variable, ...bodies] = args;
      // The body is bounded for an element of unit size: the elements' sizes add up to the list's,
      // so work linear in the element sums to work linear in the list (at most twice: once per
      // element, once per unit of size); work on anything else is done once per element.
      const inner = new Map(scope).set((variable?.args as string) ?? "", ONE);
      const body = bodies.map((child) => this.visit(child, inner, true));
      const step = scale(2, add(ONE, ...body.map((part) => part.cost)));
      const transform = scale(2, body.at(-1)?.size ?? ONE);
      const size = name === "map" ? times(list.size, transform) : name === "filter" ? list.size : ONE;
      return { size, cost: add(list.cost, times(list.size, step)) };
    }
    const parts = [...(receiver === undefined ? [] : [receiver]), ...args].map((child) =>
      this.visit(child, scope, inComprehension),
    );
    const work = add(ONE, ...parts.map((part) => part.cost), ...parts.map((part) => part.size));
    if (SCALAR_FUNCTIONS.has(name) || name.startsWith("get")) return { size: ONE, cost: work };
    if (LINEAR_FUNCTIONS.has(name)) {
      const size = add(...parts.map((part) => part.size));
      return { size: name === "hex" || name === "base64" ? scale(2, size) : size, cost: work };
    }
    this.report(node, `${name}() is not a function whose cost the policy check can bound; leave it out`);
    return { size: ONE, cost: work };
  }
}

/** The function or method name of a `call` or `rcall` node. */
function calledName(node: ASTNode): string | undefined {
  if (node.op !== "call" && node.op !== "rcall") return undefined;
  const [name] = node.args as unknown as [unknown];
  return typeof name === "string" ? name : undefined;
}

/** The AST nodes directly below `node`, whatever its operator (args hold nodes, arrays of nodes, names). */
function childrenOf(node: ASTNode): ASTNode[] {
  const children: ASTNode[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) collect(item);
    } else if (typeof value === "object" && value !== null && "op" in value && "args" in value) {
      children.push(value as ASTNode);
    }
  };
  if (node.op !== "value" && node.op !== "id") collect(node.args);
  return children;
}
