/**
 * Static check that a rule reads an optional fact only where `has(facts.<name>)` guards it.
 *
 * CEL throws "No such key" when a rule reads a fact the item does not carry; at run time that
 * rejects the item. A rule such as `facts.legal_hold` on a policy whose `legal_hold` is optional
 * would reject every item without it, so the loader refuses it instead. No library does this
 * analysis; it is a small walk over cel-js's AST using CEL's own semantics: `&&` and `||` are
 * commutative (`false && error` and `error && false` are both false), so a `has()` on either side
 * guards the other side.
 */
import type { ASTNode } from "@marcbachmann/cel-js";

/** An unguarded read of an optional fact, with its range in the CEL source. */
export interface UnguardedFact {
  fact: string;
  start: number;
  end: number;
}

type Guards = ReadonlySet<string>;

const NONE: Guards = new Set();

/**
 * Every read of a fact in `optional` that no `has()` guards.
 *
 * @param ast the parsed rule (`env.parse(src).ast`)
 * @param optional names of facts that are optional and have no default
 */
export function findUnguardedFacts(ast: ASTNode, optional: ReadonlySet<string>): UnguardedFact[] {
  const found: UnguardedFact[] = [];
  visit(ast, NONE, optional, found);
  return found;
}

function visit(node: ASTNode, guards: Guards, optional: ReadonlySet<string>, found: UnguardedFact[]): void {
  if (hasCallFact(node) !== undefined) return;
  const read = factRead(node);
  if (read !== undefined) {
    if (optional.has(read) && !guards.has(read)) found.push({ fact: read, start: node.start, end: node.end });
    return;
  }
  switch (node.op) {
    case "&&": {
      const [left, right] = node.args;
      visit(left, union(guards, presentIfTrue(right)), optional, found);
      visit(right, union(guards, presentIfTrue(left)), optional, found);
      return;
    }
    case "||": {
      const [left, right] = node.args;
      visit(left, union(guards, presentIfFalse(right)), optional, found);
      visit(right, union(guards, presentIfFalse(left)), optional, found);
      return;
    }
    case "?:": {
      const [condition, then, otherwise] = node.args;
      visit(condition, guards, optional, found);
      visit(then, union(guards, presentIfTrue(condition)), optional, found);
      visit(otherwise, union(guards, presentIfFalse(condition)), optional, found);
      return;
    }
    default:
      for (const child of childrenOf(node)) visit(child, guards, optional, found);
  }
}

/** Facts known present when `node` evaluates to true. */
function presentIfTrue(node: ASTNode): Guards {
  const guarded = hasCallFact(node);
  if (guarded !== undefined) return new Set([guarded]);
  switch (node.op) {
    case "!_":
      return presentIfFalse(node.args);
    case "&&":
      return union(presentIfTrue(node.args[0]), presentIfTrue(node.args[1]));
    case "||":
      return intersection(presentIfTrue(node.args[0]), presentIfTrue(node.args[1]));
    default:
      return NONE;
  }
}

/** Facts known present when `node` evaluates to false. */
function presentIfFalse(node: ASTNode): Guards {
  switch (node.op) {
    case "!_":
      return presentIfTrue(node.args);
    case "&&":
      return intersection(presentIfFalse(node.args[0]), presentIfFalse(node.args[1]));
    case "||":
      return union(presentIfFalse(node.args[0]), presentIfFalse(node.args[1]));
    default:
      return NONE;
  }
}

/** `has(facts.x)` → "x". */
function hasCallFact(node: ASTNode): string | undefined {
  if (node.op !== "call" || node.args[0] !== "has") return undefined;
  const [argument] = node.args[1];
  return argument === undefined ? undefined : factRead(argument);
}

/** `facts.x` or `facts["x"]` → "x". */
function factRead(node: ASTNode): string | undefined {
  if (node.op === ".") {
    const [target, field] = node.args;
    return isFactsVariable(target) ? field : undefined;
  }
  if (node.op === "[]") {
    const [target, key] = node.args;
    return isFactsVariable(target) && key.op === "value" && typeof key.args === "string"
      ? key.args
      : undefined;
  }
  return undefined;
}

function isFactsVariable(node: ASTNode): boolean {
  return node.op === "id" && node.args === "facts";
}

/** The AST nodes directly below `node`, whatever its operator (args hold nodes, arrays of nodes, names). */
function childrenOf(node: ASTNode): ASTNode[] {
  const children: ASTNode[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) collect(item);
    } else if (isAstNode(value)) {
      children.push(value);
    }
  };
  if (node.op !== "value" && node.op !== "id") collect(node.args);
  return children;
}

function isAstNode(value: unknown): value is ASTNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

function union(a: Guards, b: Guards): Guards {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  return new Set([...a, ...b]);
}

function intersection(a: Guards, b: Guards): Guards {
  return new Set([...a].filter((name) => b.has(name)));
}
