/**
 * Static check that a CEL expression's evaluation stays cheap. cel-js bounds an expression's size
 * (AST nodes, depth, literal lengths) but not its evaluation: measured on cel-js 8.0.0, three
 * nested `all()` over a 300-item fact list took 6 s, and `matches()` runs a JavaScript regular
 * expression, which can backtrack exponentially (`'^(a+)+$'` on 28 `a`s and a `!`: 17 s). A rule
 * runs for every item, with facts the producer chose, so the loader refuses both forms; a single
 * comprehension costs at most the list's length (facts lists are bounded by their schema). No
 * library does this analysis; it is a walk over cel-js's AST like `findUnguardedFacts`.
 */
import type { ASTNode } from "@marcbachmann/cel-js";

/** CEL's comprehension macros: each evaluates its body once per element. */
const COMPREHENSIONS = new Set(["all", "exists", "exists_one", "map", "filter"]);

/** A costly construct found, with its range in the CEL source. */
export interface CostlyCel {
  message: string;
  start: number;
  end: number;
}

/**
 * Every comprehension nested in another's body (its cost is the product of the lists) and every
 * `matches()` call (a backtracking regular expression), in source order.
 *
 * @param ast a parsed expression (`env.parse(src).ast`)
 */
export function findCostlyCel(ast: ASTNode): CostlyCel[] {
  const found: CostlyCel[] = [];
  visit(ast, false, found);
  return found.sort((a, b) => a.start - b.start);
}

function visit(node: ASTNode, inComprehension: boolean, found: CostlyCel[]): void {
  const name = calledName(node);
  if (name === "matches") {
    found.push({
      message:
        "matches() is not allowed: JavaScript regular expressions can take exponential time on some inputs; use startsWith, endsWith or contains",
      start: node.start,
      end: node.end,
    });
  }
  if (node.op === "rcall" && name !== undefined && COMPREHENSIONS.has(name)) {
    if (inComprehension) {
      found.push({
        message: `${name}() inside another comprehension is not allowed: its cost is the product of the lists' lengths`,
        start: node.start,
        end: node.end,
      });
    }
    const [, receiver, args] = node.args as unknown as [string, ASTNode, ASTNode[]];
    visit(receiver, inComprehension, found);
    for (const argument of args) visit(argument, true, found);
    return;
  }
  for (const child of childrenOf(node)) visit(child, inComprehension, found);
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
