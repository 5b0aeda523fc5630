import { readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import ts from "typescript";
import type { Part } from "./parts.js";
import { sourceFiles, topLevelFolders } from "./sourceFiles.js";

/** An import from a file of one part into a file of another. */
export interface CrossPartImport {
  /** The importing file, from the repository root. */
  readonly file: string;
  /** The imported path, from the repository root (as written, resolved; no extension mapping). */
  readonly target: string;
  readonly fromPart: string;
  /** The top-level folder (or file) the import leads into. */
  readonly toPart: string;
}

/**
 * Every relative import of the given files that leads into another top-level folder: static
 * imports and re-exports (type-only ones included: they tie the parts as much as the others) and
 * `import()` calls with a literal path. Package imports are left out.
 */
export function crossPartImports(root: string, files: readonly string[]): CrossPartImport[] {
  const found: CrossPartImport[] = [];
  for (const file of files) {
    const fromPart = file.split("/")[0] ?? "";
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = posix.normalize(posix.join(dirname(file), fileName));
      const toPart = target.split("/")[0] ?? "";
      if (toPart !== fromPart) found.push({ file, target, fromPart, toPart });
    }
  }
  return found;
}

/** The parts' imports as a graph (part → parts it imports), run-time loads included. */
function partGraph(parts: readonly Part[]): Map<string, string[]> {
  return new Map(
    parts.map((part) => [part.name, part.imports === "any" ? [] : part.imports.map((entry) => entry.part)]),
  );
}

/** The cycles of the table's graph, each as `a → b → a`. */
export function partCycles(parts: readonly Part[]): string[] {
  const graph = partGraph(parts);
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (name: string, stack: readonly string[]): void => {
    if (stack.includes(name)) {
      cycles.push([...stack.slice(stack.indexOf(name)), name].join(" → "));
      return;
    }
    if (done.has(name)) return;
    for (const next of graph.get(name) ?? []) visit(next, [...stack, name]);
    done.add(name);
  };
  for (const name of graph.keys()) visit(name, []);
  return cycles;
}

/**
 * The floors of the house the table draws, bottom up: a part stands one floor above the highest
 * part it imports; parts that import nothing and that nothing imports (data, docs) and `test/` are
 * left out. Requires a table without cycles ({@link partCycles}).
 */
export function partFloors(parts: readonly Part[]): string[][] {
  const graph = partGraph(parts);
  const imported = new Set([...graph.values()].flat());
  const floorOf = new Map<string, number>();
  const floor = (name: string): number => {
    const known = floorOf.get(name);
    if (known !== undefined) return known;
    const below = (graph.get(name) ?? []).map(floor);
    const value = below.length === 0 ? 0 : Math.max(...below) + 1;
    floorOf.set(name, value);
    return value;
  };
  const floors: string[][] = [];
  for (const part of parts) {
    if (part.imports === "any") continue;
    if (part.imports.length === 0 && !imported.has(part.name)) continue;
    const level = floor(part.name);
    floors[level] = [...(floors[level] ?? []), part.name];
  }
  return floors.map((names) => [...names].sort());
}

/**
 * Where the code and the table of parts disagree, each as a sentence; empty when they agree:
 * - a top-level folder without a row, or a row without a folder;
 * - an import the table does not allow (its part not listed, or listed for other files only);
 * - an allowance no import uses (a part listed, or a file in `only`, that imports nothing of it);
 * - a cycle in the table.
 */
export function partImportViolations(root: string, parts: readonly Part[]): string[] {
  const violations: string[] = [];
  const folders = topLevelFolders(root);
  const byName = new Map(parts.map((part) => [part.name, part]));
  for (const folder of folders) {
    if (!byName.has(folder)) violations.push(`${folder}/ has no row in the table of parts`);
  }
  for (const part of parts) {
    if (!folders.includes(part.name))
      violations.push(`the table of parts names ${part.name}/, which is not a folder`);
  }
  const checked = parts.filter((part) => part.imports !== "any" && folders.includes(part.name));
  const imports = crossPartImports(
    root,
    sourceFiles(
      root,
      checked.map((part) => part.name),
    ),
  );
  for (const found of imports) {
    const allowed = byName.get(found.fromPart)?.imports;
    if (allowed === "any" || allowed === undefined) continue;
    const entry = allowed.find(
      (candidate) => candidate.part === found.toPart && candidate.atRunTime !== true,
    );
    if (entry === undefined) {
      violations.push(
        `${found.file} imports ${found.target}: ${found.fromPart}/ does not import ${found.toPart}/`,
      );
    } else if (entry.only !== undefined && !entry.only.includes(found.file)) {
      violations.push(
        `${found.file} imports ${found.target}: of ${found.fromPart}/ only ${entry.only.join(", ")} import ${found.toPart}/`,
      );
    }
  }
  for (const part of checked) {
    if (part.imports === "any") continue;
    for (const entry of part.imports) {
      if (entry.atRunTime === true) continue;
      const used = imports.filter((found) => found.fromPart === part.name && found.toPart === entry.part);
      if (used.length === 0)
        violations.push(`${part.name}/ is listed as importing ${entry.part}/, but none of its files does`);
      for (const file of entry.only ?? []) {
        if (!used.some((found) => found.file === file)) {
          violations.push(`${file} is listed as importing ${entry.part}/, but does not`);
        }
      }
    }
  }
  for (const cycle of partCycles(parts)) violations.push(`the table of parts has a cycle: ${cycle}`);
  return violations;
}
