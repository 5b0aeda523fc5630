import { ENTRY_POINTS, type EntryPoint } from "./entryPoints.js";
import { replaceGeneratedBlock } from "./generatedBlock.js";
import { partFloors } from "./partImports.js";
import { PARTS, type Part, type PartImport } from "./parts.js";
import { subFolders } from "./sourceFiles.js";

/** The script that writes docs/architecture.md's generated blocks, named in their markers. */
export const ARCHITECTURE_PAGE_SCRIPT = "lab/scripts/writeArchitecturePage.ts";

/** One allowance of a part, as the table's "imports" cell says it. */
function importText(entry: PartImport): string {
  const where =
    entry.only === undefined ? "" : `only ${entry.only.map((file) => `\`${file}\``).join(" and ")}`;
  const how = entry.atRunTime === true ? "at run time" : "";
  const detail = [how, where, entry.why].filter((text) => text !== undefined && text !== "").join(": ");
  return detail === "" ? `\`${entry.part}/\`` : `\`${entry.part}/\` (${detail})`;
}

/** The "imports" cell of a part: what it imports, then the rule beyond it. */
function importsCell(part: Part): string {
  const imports =
    part.imports === "any"
      ? "any part"
      : part.imports.length === 0
        ? "no part"
        : part.imports.map(importText).join(", ");
  return part.note === undefined ? imports : `${imports}; ${part.note}`;
}

/** The table of parts: name, what it is, its sub-folders (from the tree, unless the part says), what it imports. */
export function partTable(root: string, parts: readonly Part[] = PARTS): string[] {
  const rows = parts.map((part) => {
    const folders = subFolders(root, part.name).map((name) => `\`${name}/\``);
    const foldersCell = part.folders ?? (folders.length === 0 ? "—" : folders.join(" "));
    return `| \`${part.name}/\` | ${part.what} | ${foldersCell} | ${importsCell(part)} |`;
  });
  return ["| part | what it is | folders | imports |", "| --- | --- | --- | --- |", ...rows];
}

/** The floors of the house, bottom up, one line each. */
export function floorList(parts: readonly Part[] = PARTS): string[] {
  return partFloors(parts).map(
    (names, index) => `${index + 1}. ${names.map((name) => `\`${name}/\``).join(", ")}`,
  );
}

/** The kinds of entry points, one line each. */
export function entryPointList(entryPoints: readonly EntryPoint[] = ENTRY_POINTS): string[] {
  return entryPoints.map((entry) => `- \`${entry.pattern}\`: ${entry.what}`);
}

/**
 * docs/architecture.md with its generated blocks written from the code: the part table and the
 * floors from the table of parts (`parts.ts`, sub-folders from the tree under `root`), the entry
 * points from `entryPoints.ts`. The prose around them is kept as it is.
 * @throws GeneratedBlockError when the page lacks a block's markers.
 */
export function architecturePage(page: string, root: string): string {
  const blocks: [string, string[]][] = [
    ["the part table", partTable(root)],
    ["the floors", floorList()],
    ["the entry points", entryPointList()],
  ];
  return blocks.reduce(
    (written, [block, content]) => replaceGeneratedBlock(written, block, ARCHITECTURE_PAGE_SCRIPT, content),
    page,
  );
}
