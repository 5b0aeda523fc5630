import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/**
 * SHA-256 of a file, read as a stream so large models never sit in memory.
 * @returns lower-case hex.
 * @throws the file system error (e.g. ENOENT) or the signal's reason.
 */
export async function sha256File(path: string, options: { signal?: AbortSignal } = {}): Promise<string> {
  const hash = createHash("sha256");
  const stream = createReadStream(path, { highWaterMark: 4 * 1024 * 1024, signal: options.signal });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
