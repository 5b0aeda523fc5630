/**
 * Static check that a CEL expression's evaluation stays cheap. cel-js bounds an expression's size
 * (AST nodes, depth, literal lengths) but not its evaluation: measured on cel-js 8.0.0, three
 * nested `all()` over a 300-item fact list took 6 s; `matches()` runs a JavaScript regular
 * expression, which can backtrack exponentially (`'^(a+)+$'` on 28 `a`s and a `!`: 17 s); a
 * 555-character rule of nested `cel.bind`s, each concatenating its list eight ways, took 8.2 s and
 * 1.4 GB; the same rule over a literal list builds 33 million elements at eight levels;
 * `facts.tags.all(t, t in facts.tags)` is quadratic, and so is `facts.t.join(facts.s)` (the
 * separator is repeated once per element). A rule runs for every item, with facts the producer
 * chose, so the loader refuses what it cannot bound.
 *
 * The bound: every value's size and every node's cost is bounded by a polynomial `c₀ + c₁·N + …`,
 * N the size of the largest input (a fact, an answer, the event), sizes counted in list elements,
 * map entries and characters together. A literal's size is its length; a fact read is `N`; `a + b`
 * has the sum of the sizes and costs their sum; `x in list` costs the list's size; `join` with a
 * separator is as large as its list plus the list's length times the separator; a comprehension
 * costs its list's size times its body's cost for a unit element, plus its body's cost for one
 * element as large as the whole list (an element can be that large: sound for bodies that grow
 * faster than linearly in their element); `cel.bind(v, init, body)` gives `v` the size of `init`.
 * An expression is accepted when its cost and the size of each value are at most linear (d ≤ 1)
 * with small coefficients ({@link MAX_SIZE_FACTOR}, {@link MAX_COST_FACTOR}) and its constant terms
 * (what literals alone build, whatever the input) are within the runtime guard's budget
 * ({@link MAX_CONSTANT_SIZE}, {@link MAX_CONSTANT_COST}); a function the check does not know is
 * refused, since its cost cannot be bounded. The runtime guard (`guardCelProgram`) backs this up
 * at evaluation. No library does this analysis; it is a walk over cel-js's AST like
 * `findUnguardedFacts`.
 */
import type { ASTNode } from "@marcbachmann/cel-js";
import { DEFAULT_CEL_BUDGET } from "./guardCelProgram.js";

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

/**
 * Functions whose result is at most `factor` times as large as their arguments together (plus
 * `extra`): `bytes(s)` is up to 3 UTF-8 bytes per UTF-16 unit, `hex` two characters per byte,
 * JavaScript's `toUpperCase` turns one unit into up to three (`ΐ`), `string(2.5e-300)` a scalar
 * into up to 24 characters, `split` a string of n characters into up to n one-character strings.
 */
const LINEAR_FUNCTIONS: ReadonlyMap<string, { factor: number; extra: number }> = new Map([
  ["string", { factor: 1, extra: 24 }],
  ["bytes", { factor: 3, extra: 0 }],
  ["dyn", { factor: 1, extra: 0 }],
  ["lowerAscii", { factor: 3, extra: 0 }],
  ["upperAscii", { factor: 3, extra: 0 }],
  ["trim", { factor: 1, extra: 0 }],
  ["substring", { factor: 1, extra: 0 }],
  ["split", { factor: 2, extra: 1 }],
  ["json", { factor: 1, extra: 0 }],
  ["base64", { factor: 2, extra: 0 }],
  ["hex", { factor: 2, extra: 0 }],
]);

/** Most a value may grow relative to the largest input: `a + a + a + a` is 4. */
export const MAX_SIZE_FACTOR = 16;

/** Most work an expression may do relative to the largest input: a few passes over each list. */
export const MAX_COST_FACTOR = 256;

/**
 * Largest value (elements, entries and characters together) an expression may build whatever its
 * input, from literals alone: the runtime guard's limit on a list's elements, so that nothing the
 * static check accepts is stopped by the guard on an empty input.
 */
export const MAX_CONSTANT_SIZE = DEFAULT_CEL_BUDGET.maxElements;

/**
 * Most work an expression may do whatever its input: a quarter of the runtime guard's step budget,
 * leaving the rest for the work that grows with the input.
 */
export const MAX_CONSTANT_COST = DEFAULT_CEL_BUDGET.maxSteps / 4;

/** A costly construct found, with its range in the CEL source. */
export interface CostlyCel {
  message: string;
  start: number;
  end: number;
}

/**
 * A polynomial upper bound in the input size N ≥ 1: `coefficients[d]` multiplies `N^d`; the
 * constant term is what the expression does on literals alone.
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
const count = (value: number): string =>
  Number.isFinite(value) ? Math.ceil(value).toLocaleString("en-US") : "more than 10^308";

/** A node's bounds: the size of its value and the cost of evaluating it. */
interface Bounds {
  size: Bound;
  cost: Bound;
}

/**
 * Every construct whose evaluation cannot be bounded: a comprehension nested in another's body,
 * `matches()`, a value that can grow more than linearly or more than {@link MAX_SIZE_FACTOR}-fold
 * (concatenations through `cel.bind`, `join` with a separator read from the input), a value built
 * from literals larger than {@link MAX_CONSTANT_SIZE}, an expression whose cost is more than
 * linear (`in` on a list inside a comprehension), more than {@link MAX_COST_FACTOR} passes over its
 * input or more than {@link MAX_CONSTANT_COST} steps whatever the input, and a function the check
 * does not know, in source order. Each message quotes the part of the expression and the bound.
 *
 * @param ast a parsed expression (`env.parse(src).ast`)
 * @example
 * ```ts
 * findCostlyCel(env.parse("size(facts.t.join(facts.s)) > 0").ast)[0]?.message;
 * // "`facts.t.join(facts.s)` can build a value that grows with the square of its input …"
 * ```
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
    const shown = `\`${source.length > 60 ? `${source.slice(0, 28)}…${source.slice(-28)}` : source}\``;
    const sizeFactor = coefficient(size, 1);
    const costFactor = coefficient(cost, 1);
    const why =
      calledName(node) === "join"
        ? "join() repeats its separator once per element, so a separator that grows with the input multiplies the sizes"
        : "concatenating a list or string with itself, directly, through cel.bind or in map(), multiplies its size";
    if (degreeOf(size) > 1 || sizeFactor > MAX_SIZE_FACTOR) {
      this.exceeded = true;
      this.report(
        node,
        `${shown} can build a value ${degreeOf(size) > 1 ? `that grows with the square of its input (at most linearly, ${MAX_SIZE_FACTOR} times it)` : `${count(sizeFactor)} times as large as its input (at most ${MAX_SIZE_FACTOR})`}; ${why}`,
      );
    } else if (coefficient(size, 0) > MAX_CONSTANT_SIZE) {
      this.exceeded = true;
      this.report(
        node,
        `${shown} can build a value of ${count(coefficient(size, 0))} elements and characters from its literals alone, whatever the input (at most ${count(MAX_CONSTANT_SIZE)}, the evaluation budget's list limit); ${why}`,
      );
    } else if (degreeOf(cost) > 1 || costFactor > MAX_COST_FACTOR) {
      this.exceeded = true;
      this.report(
        node,
        `${shown} costs ${degreeOf(cost) > 1 ? "the product of its lists' lengths" : `${count(costFactor)} passes over its input`} (at most linear, ${MAX_COST_FACTOR} passes); \`in\` on a list, a concatenation or a comparison of lists inside a comprehension runs once per element`,
      );
    } else if (coefficient(cost, 0) > MAX_CONSTANT_COST) {
      this.exceeded = true;
      this.report(
        node,
        `${shown} costs ${count(coefficient(cost, 0))} steps on its literals alone, whatever the input (at most ${count(MAX_CONSTANT_COST)}, a quarter of the evaluation budget's ${count(DEFAULT_CEL_BUDGET.maxSteps)} steps); a comprehension over a literal list runs its body once per element`,
      );
    }
  }

  private bounds(node: ASTNode, scope: ReadonlyMap<string, Bound>, inComprehension: boolean): Bounds {
    const visit = (child: ASTNode, childScope = scope, nested = inComprehension) =>
      this.visit(child, childScope, nested);
    const args = node.args as unknown;
    switch (node.op) {
      case "value":
        return { size: [literalSize(args)], cost: ONE };
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
      case "!=":
      case "<":
      case "<=":
      case ">":
      case ">=": {
        // Membership scans the list; equality compares lists and maps element by element;
        // comparing strings reads them up to their first difference.
        const [left, right] = (args as ASTNode[]).map((child) => visit(child)) as [Bounds, Bounds];
        return { size: ONE, cost: add(ONE, left.cost, right.cost, left.size, right.size) };
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
          cost: add(ONE, ...entries.map((entry) => entry.cost), ...entries.map((entry) => entry.size)),
        };
      }
      case "call":
        return this.call(node, undefined, (args as [string, ASTNode[]])[1], scope, inComprehension);
      case "rcall": {
        const [, receiver, callArgs] = args as [string, ASTNode, ASTNode[]];
        return this.call(node, receiver, callArgs, scope, inComprehension);
      }
      default: {
        // Arithmetic, logic, negation, indexing: scalar results (an index gives an element, no
        // larger than its list), cost the sum of the operands' (a map's key is hashed: its size).
        const children = childrenOf(node).map((child) => visit(child));
        const indexed = node.op === "[]" || node.op === "[?]";
        return {
          size: indexed ? (children[0]?.size ?? ONE) : ONE,
          cost: add(
            ONE,
            ...children.map((child) => child.cost),
            ...(indexed ? [children[1]?.size ?? ONE] : []),
          ),
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
      return this.comprehension(node, name, receiver, args, scope, inComprehension);
    }
    const parts = [...(receiver === undefined ? [] : [receiver]), ...args].map((child) =>
      this.visit(child, scope, inComprehension),
    );
    const work = add(ONE, ...parts.map((part) => part.cost), ...parts.map((part) => part.size));
    if (SCALAR_FUNCTIONS.has(name) || name.startsWith("get")) return { size: ONE, cost: work };
    if (name === "join" && receiver !== undefined) {
      // The separator is written between every two elements; the elements are at most the list's size.
      const [list, separator] = parts as [Bounds, Bounds | undefined];
      const size = separator === undefined ? list.size : add(list.size, times(list.size, separator.size));
      return { size, cost: add(work, size) };
    }
    const linear = LINEAR_FUNCTIONS.get(name);
    if (linear !== undefined) {
      // split's separator only shapes its result; every other argument can end up in it.
      const inputs = name === "split" ? parts.slice(0, 1) : parts;
      const size = add(scale(linear.factor, add(...inputs.map((part) => part.size))), [linear.extra]);
      return { size, cost: add(work, size) };
    }
    this.report(node, `${name}() is not a function whose cost the policy check can bound; leave it out`);
    return { size: ONE, cost: work };
  }

  /**
   * A comprehension runs its body once per element. The elements' sizes add up to at most the
   * list's size, and a body's bound is a convex function of its element's size, so the sum over
   * the elements is at most the list's size times the body for a unit element plus the body for
   * one element as large as the whole list. The second walk is quiet: what it finds is reported
   * only when the first (the per-element one) found nothing, so a body that is super-linear in its
   * element (`t.split('').join(t)`) is refused at its own node.
   */
  private comprehension(
    node: ASTNode,
    name: string,
    receiver: ASTNode,
    args: ASTNode[],
    scope: ReadonlyMap<string, Bound>,
    inComprehension: boolean,
  ): Bounds {
    if (inComprehension) {
      this.report(
        node,
        `${name}() inside another comprehension is not allowed: its cost is the product of the lists' lengths`,
      );
    }
    const list = this.visit(receiver, scope, inComprehension);
    const [variable, ...bodies] = args;
    const element = (size: Bound) => new Map(scope).set((variable?.args as string) ?? "", size);
    const before = this.found.length;
    const unit = bodies.map((child) => this.visit(child, element(ONE), true));
    // A nested comprehension is already refused; walking it twice per level would be exponential.
    let whole: Bounds[] = unit;
    if (!inComprehension) {
      const quiet: CostlyCel[] = [];
      const walk = new CostWalk(quiet);
      whole = bodies.map((child) => walk.visit(child, element(list.size), true));
      if (this.found.length === before && !this.exceeded && quiet.length > 0) {
        this.found.push(...quiet);
        this.exceeded ||= walk.exceeded;
      }
    }
    const sum = (part: (bounds: Bounds) => Bound, bounds: Bounds[]) => add(...bounds.map(part));
    const step = add(
      ONE,
      sum((b) => b.cost, unit),
    );
    const cost = add(
      list.cost,
      times(list.size, step),
      sum((b) => b.cost, whole),
    );
    const transform = (bounds: Bounds[]) => bounds.at(-1)?.size ?? ONE;
    const size =
      name === "map"
        ? add(list.size, times(list.size, transform(unit)), transform(whole))
        : name === "filter"
          ? list.size
          : ONE;
    return { size, cost };
  }
}

/** A literal's size: a string's or bytes' length, 1 for a scalar. */
function literalSize(value: unknown): number {
  if (typeof value === "string" || value instanceof Uint8Array) return Math.max(1, value.length);
  return 1;
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
