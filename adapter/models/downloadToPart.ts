import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type FileHandle, open, rm, stat } from "node:fs/promises";
import { basename } from "node:path";
import { ModelChecksumMismatchError, ModelFileError, ModelHubError } from "./errors.js";
import type { HubClient } from "./HubClient.js";
import { describeError, hubWriteError } from "./hubWriteError.js";

/** Progress of a download. */
export interface PullProgress {
  /** Bytes of the file on disk, those of earlier (resumed) downloads included. */
  bytesReceived: number;
  totalBytes: number;
  /** Where this download started: above 0 when it resumed. */
  resumedFrom: number;
}

const GGUF_MAGIC = Buffer.from("GGUF", "latin1");

/** Options of {@link downloadToPart}. */
export interface DownloadToPartOptions {
  client: HubClient;
  url: string;
  part: string;
  expected: { sha256: string; size: number };
  attempts: number;
  /** Called as bytes arrive. */
  onProgress: ((progress: PullProgress) => void) | undefined;
  note: (line: string) => void;
  signal: AbortSignal | undefined;
  uri: string;
}

/**
 * Fills `part` with a hub file's bytes, resuming from what it holds (`Range`), and checks them:
 * size, GGUF magic (as soon as the first bytes arrive), sha256. A broken connection is resumed up to
 * `attempts` downloads in all; bytes that cannot be the file (not GGUF, wrong sha256) are removed.
 * @returns the byte the first download resumed from (0 for a fresh one).
 * @throws {ModelHubError} `interrupted` (the part kept), `not-gguf`, `write-failed`, `protocol`, or
 *   what {@link HubClient.download} throws.
 * @throws {ModelChecksumMismatchError} when the bytes' sha256 is not the expected one.
 */
export async function downloadToPart(context: DownloadToPartOptions): Promise<number> {
  const { part, expected, note } = context;
  let firstStart: number | undefined;
  for (let attempt = 1; ; attempt += 1) {
    let have = await partSize(part);
    if (have > expected.size) {
      await rm(part, { force: true });
      have = 0;
    }
    firstStart ??= have;
    if (have > 0) note(`resuming ${basename(part)} from byte ${have} of ${expected.size}`);
    try {
      let hash: Hash;
      if (have < expected.size) hash = await receive(context, have);
      else {
        hash = createHash("sha256");
        await hashFileInto(hash, part);
      }
      await checkMagic(part);
      const actual = hash.digest("hex");
      if (actual !== expected.sha256) {
        await rm(part, { force: true });
        throw new ModelChecksumMismatchError(
          `${context.uri} has sha256 ${actual}, but the hub states ${expected.sha256}: the bytes were removed and nothing was kept; pull again, and if it repeats the server (HF_ENDPOINT) serves other bytes than it states`,
        );
      }
      return firstStart;
    } catch (error) {
      if (error instanceof ModelHubError && error.reason === "interrupted" && attempt < context.attempts) {
        note(`${error.message}; resuming (download ${attempt + 1} of ${context.attempts})`);
        continue;
      }
      throw error;
    }
  }
}

/**
 * Receives the bytes from `have` on into `part` (or all of them, when the server ignores the range),
 * the part keeping what arrived.
 * @returns the sha256 of the whole part so far.
 */
async function receive(context: DownloadToPartOptions, have: number): Promise<Hash> {
  const { client, url, part, expected, signal } = context;
  const resumed = createHash("sha256");
  if (have > 0) await hashFileInto(resumed, part);
  const opened = await client.download(url, have, signal);
  let position = opened.start;
  // A server that sends the whole file again (200, not 206) starts the part and the hash afresh.
  const hash = position === 0 ? createHash("sha256") : resumed;
  let file: FileHandle;
  try {
    file = await open(part, position === 0 ? "w" : "a");
  } catch (error) {
    await opened.body.cancel();
    throw hubWriteError(error, part, undefined);
  }
  const head: Buffer[] = [];
  try {
    try {
      for await (const chunk of opened.body) {
        if (position < GGUF_MAGIC.length) {
          head.push(Buffer.from(chunk));
          requireMagicSoFar(Buffer.concat(head), position === 0 ? 0 : position, context.uri);
        }
        if (position + chunk.length > expected.size) {
          throw new ModelHubError(
            `${context.uri} sent more than the ${expected.size} bytes the hub states`,
            "protocol",
          );
        }
        try {
          await file.write(chunk);
        } catch (error) {
          throw hubWriteError(error, part, position);
        }
        hash.update(chunk);
        position += chunk.length;
        context.onProgress?.({
          bytesReceived: position,
          totalBytes: expected.size,
          resumedFrom: opened.start,
        });
      }
    } catch (error) {
      if (error instanceof ModelFileError) throw error;
      if (signal?.aborted) throw signal.reason;
      throw new ModelHubError(
        `the download of ${context.uri} broke off at byte ${position} of ${expected.size} (${describeError(error)}); those bytes are kept in ${part} and the next pull resumes from there`,
        "interrupted",
        { cause: error },
      );
    }
    try {
      await file.sync();
    } catch (error) {
      throw hubWriteError(error, part, position);
    }
  } catch (error) {
    if (error instanceof ModelHubError && error.reason === "not-gguf") await rm(part, { force: true });
    throw error;
  } finally {
    await file.close().catch(() => undefined);
  }
  if (position < expected.size) {
    throw new ModelHubError(
      `the download of ${context.uri} ended at byte ${position} of ${expected.size}; those bytes are kept in ${part} and the next pull resumes from there`,
      "interrupted",
    );
  }
  return hash;
}

/** Refuses bytes that do not start as a GGUF file does, as soon as the first four have arrived. */
function requireMagicSoFar(head: Buffer, from: number, uri: string): void {
  const seen = head.subarray(0, Math.max(0, GGUF_MAGIC.length - from));
  if (!seen.equals(GGUF_MAGIC.subarray(from, from + seen.length))) {
    throw new ModelHubError(
      `${uri} is not a GGUF file (it does not start with "GGUF"); nothing was kept`,
      "not-gguf",
    );
  }
}

async function checkMagic(part: string): Promise<void> {
  const handle = await open(part, "r");
  try {
    const magic = Buffer.alloc(GGUF_MAGIC.length);
    const { bytesRead } = await handle.read(magic, 0, magic.length, 0);
    if (bytesRead < magic.length || !magic.equals(GGUF_MAGIC)) {
      await rm(part, { force: true });
      throw new ModelHubError(
        `${basename(part)} is not a GGUF file (it does not start with "GGUF"); it was removed`,
        "not-gguf",
      );
    }
  } finally {
    await handle.close();
  }
}

async function partSize(part: string): Promise<number> {
  const found = await stat(part).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw hubWriteError(error, part, undefined);
  });
  return found?.size ?? 0;
}

/** Feeds a file's bytes into a hash. */
export async function hashFileInto(hash: Hash, path: string): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}
