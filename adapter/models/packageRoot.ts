import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of this package: the nearest folder above this module that holds a `package.json`
 * (the same whether running from the sources or from `dist/`). Falls back to the working directory.
 */
export function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, "package.json"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return resolve(".");
    folder = parent;
  }
}
