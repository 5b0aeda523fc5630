import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** SHA-256 (hex) of a file, read as a stream so large models never sit in memory. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) {
    hash.update(chunk as Buffer);
  }
  return hash.digest("hex");
}
