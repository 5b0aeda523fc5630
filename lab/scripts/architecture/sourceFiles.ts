import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders of the checkout that are not the repository's own: installed, built or cached. */
const NOT_OURS = new Set(["node_modules", "dist", "cdk.out"]);

/** Whether a folder entry belongs to the repository (not hidden, installed, built or cached). */
function isOurs(name: string): boolean {
  return !name.startsWith(".") && !NOT_OURS.has(name);
}

/**
 * The repository's top-level folders (its parts), sorted: hidden folders and what is installed or
 * built (`node_modules`, `dist`, `cdk.out`) left out.
 */
export function topLevelFolders(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isOurs(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** The sub-folders of a part, sorted (`engine`, `server`, … for `adapter`). */
export function subFolders(root: string, part: string): string[] {
  return readdirSync(join(root, part), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isOurs(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Every TypeScript and JavaScript source file under the given top-level folders, as paths from the
 * repository root with `/`, sorted (declaration files left out: they hold no code that runs).
 */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      if (!isOurs(entry.name)) return [];
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)
        ? [path]
        : [];
    });
  return folders.flatMap(walk).sort();
}
