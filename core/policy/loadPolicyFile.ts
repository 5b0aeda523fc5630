import { readFile } from "node:fs/promises";
import { PolicyLoadError } from "./errors.js";
import type { Policy } from "./Policy.js";
import { parsePolicy } from "./parsePolicy.js";

/**
 * Reads and parses one policy file (see `parsePolicy`).
 *
 * @throws PolicyLoadError with every problem; an unreadable file is one problem (cause kept)
 */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PolicyLoadError(
      [{ file: path, line: 1, column: 1, path: [], message: `cannot read: ${reason}` }],
      {
        cause: error,
      },
    );
  }
  return parsePolicy(text, path);
}
