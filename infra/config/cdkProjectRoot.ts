import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The CDK project's folder: the nearest folder above this module that holds `cdk.json` (the build
 * context of the images, `package-lock.json`, `policies/`), from the sources or from `dist/`.
 *
 * @throws Error when no folder above holds a `cdk.json`.
 */
export function cdkProjectRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, "cdk.json"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no cdk.json above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}
