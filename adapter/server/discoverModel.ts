import { readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { ModelDiscoveryError } from "./errors.js";

/** Where to look for the model. */
export interface DiscoverModelOptions {
  /** An explicit GGUF file: used as is (it must exist and be a file). */
  modelPath?: string | undefined;
  /** Searched when no explicit path is given: `*.gguf` directly inside it or in one folder below. */
  modelDir: string;
}

/**
 * Finds the one GGUF file to serve: the explicit path, else the only `.gguf` file directly under
 * `modelDir` or in one of its immediate folders (SageMaker unpacks `model.tar.gz` there, often
 * into a folder of its own).
 *
 * @returns the GGUF's path.
 * @throws ModelDiscoveryError when the explicit path is not a file, the directory cannot be read,
 *   or it holds no GGUF or several (all are listed, so the fix is obvious).
 */
export async function discoverModel(options: DiscoverModelOptions): Promise<string> {
  if (options.modelPath !== undefined) {
    const info = await stat(options.modelPath).catch((error: unknown) => {
      throw new ModelDiscoveryError(`the model file ${options.modelPath} cannot be read`, { cause: error });
    });
    if (!info.isFile()) throw new ModelDiscoveryError(`the model path ${options.modelPath} is not a file`);
    return options.modelPath;
  }
  const directory = options.modelDir;
  const entries = await readdir(directory, { withFileTypes: true }).catch((error: unknown) => {
    throw new ModelDiscoveryError(
      `the model directory ${directory} cannot be read; set SEMIF_MODEL_PATH or --model`,
      {
        cause: error,
      },
    );
  });
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.isFile() && isGguf(entry.name)) found.push(join(directory, entry.name));
    if (entry.isDirectory()) {
      const folder = join(directory, entry.name);
      const inner = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
        throw new ModelDiscoveryError(`the model folder ${folder} cannot be read`, { cause: error });
      });
      for (const file of inner) {
        if (file.isFile() && isGguf(file.name)) found.push(join(directory, entry.name, file.name));
      }
    }
  }
  found.sort();
  const [only, second] = found;
  if (only !== undefined && second === undefined) return only;
  const names = entries.map((entry) => `${entry.name}${entry.isDirectory() ? "/" : ""}`).sort();
  if (only === undefined) {
    throw new ModelDiscoveryError(
      `no .gguf file in ${directory} or one folder below (found: ${names.length === 0 ? "nothing" : names.join(", ")}); ` +
        "put exactly one there, or set SEMIF_MODEL_PATH or --model",
    );
  }
  throw new ModelDiscoveryError(
    `${found.length} .gguf files in ${directory}: ${found.map((path) => relative(directory, path)).join(", ")}; ` +
      "keep exactly one, or choose one with SEMIF_MODEL_PATH or --model",
  );
}

function isGguf(name: string): boolean {
  return name.toLowerCase().endsWith(".gguf") && !name.startsWith(".");
}
