import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** A place in a source file that reads or writes `process.env`. */
export interface ProcessEnvUse {
  /** The file, from the repository root. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** The line there, trimmed (at most 100 characters). */
  readonly text: string;
}

/** Whether an expression is the `process` global (`process`, `globalThis.process`). */
function isProcess(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === "process";
  return ts.isPropertyAccessExpression(node) &&
    node.name.text === "process" &&
    ts.isIdentifier(node.expression)
    ? node.expression.text === "globalThis"
    : false;
}

/** Whether a binding pattern takes `env` out of what it destructures. */
function bindsEnv(pattern: ts.BindingName): boolean {
  return (
    ts.isObjectBindingPattern(pattern) &&
    pattern.elements.some((element) => {
      const name = element.propertyName ?? element.name;
      return (ts.isIdentifier(name) || ts.isStringLiteral(name)) && name.text === "env";
    })
  );
}

/**
 * Where the code of one file uses `process.env`: `process.env`, `process["env"]`, `globalThis.process.env`,
 * `const { env } = process` and `import { env } from "node:process"`. Comments and strings that
 * mention it are not uses; a type such as `NodeJS.ProcessEnv` is not either.
 */
export function processEnvUsesIn(file: string, text: string): ProcessEnvUse[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const uses: ProcessEnvUse[] = [];
  const add = (node: ts.Node): void => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    uses.push({ file, line: line + 1, text: (text.split("\n")[line] ?? "").trim().slice(0, 100) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === "env" && isProcess(node.expression))
      add(node);
    else if (
      ts.isElementAccessExpression(node) &&
      isProcess(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === "env"
    )
      add(node);
    else if (
      ts.isVariableDeclaration(node) &&
      node.initializer !== undefined &&
      isProcess(node.initializer) &&
      bindsEnv(node.name)
    )
      add(node);
    else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      (node.moduleSpecifier.text === "process" || node.moduleSpecifier.text === "node:process") &&
      node.importClause?.namedBindings !== undefined &&
      ts.isNamedImports(node.importClause.namedBindings) &&
      node.importClause.namedBindings.elements.some(
        (element) => (element.propertyName ?? element.name).text === "env",
      )
    )
      add(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

/** Where the given files (paths from the repository root) use `process.env`, file by file. */
export function processEnvUses(root: string, files: readonly string[]): ProcessEnvUse[] {
  return files.flatMap((file) => {
    const text = readFileSync(join(root, file), "utf8");
    // Only a file that names both can use it: most files are not parsed at all.
    return text.includes("process") && text.includes("env") ? processEnvUsesIn(file, text) : [];
  });
}
