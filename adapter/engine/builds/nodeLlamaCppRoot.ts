import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The folder of the installed node-llama-cpp package (its `llama/` holds the bundled llama.cpp
 * source, `dist/cli/cli.js` its command line). Found from its main module, `dist/index.js`: the
 * package exports no `package.json`.
 */
export function nodeLlamaCppRoot(): string {
  const main = createRequire(import.meta.url).resolve("node-llama-cpp");
  const root = dirname(dirname(main));
  if (!existsSync(join(root, "llama"))) throw new Error(`node-llama-cpp's llama/ folder is not in ${root}`);
  return root;
}
