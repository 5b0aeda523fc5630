import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ModelChecksumMismatchError, ModelDownloadError } from "./errors.js";

/** A model pinned by URL and checksum. */
export interface ModelCatalogueEntry {
  /** Short name, e.g. `qwen3.5-4b-q4_k_m`. */
  name: string;
  /** Download URL, pinned to a revision (not a moving branch). */
  url: string;
  /** SHA-256 of the file, lower-case hex, from the host's LFS pointer. */
  sha256: string;
  sizeBytes: number;
  /** Where the pin comes from (repository and commit). */
  source: string;
  revision: string;
}

/**
 * Models that can be downloaded by name. Empty: no public Qwen3.5-4B Q4_K_M GGUF could be pinned to a
 * checksum from an authoritative page (see the project notes); add an entry only with the sha256 of
 * the host's LFS pointer at a fixed revision.
 */
export const MODEL_CATALOGUE: readonly ModelCatalogueEntry[] = [];

/** Progress of {@link downloadModel}. */
export interface DownloadProgress {
  bytesReceived: number;
  /** From `Content-Length`, when the server sends it. */
  totalBytes: number | undefined;
}

/** Options of {@link downloadModel}. */
export interface DownloadModelOptions {
  /** `http:` or `https:` URL of the file. */
  url: string;
  /** Expected SHA-256, hex (case-insensitive). */
  sha256: string;
  /** Path to write; its folder is created. Replaced only when the download verifies. */
  out: string;
  /** Aborts the download; the temporary file is removed. */
  signal?: AbortSignal;
  /** Called as chunks arrive. Default: none. */
  onProgress?: (progress: DownloadProgress) => void;
}

/** What {@link downloadModel} wrote. */
export interface DownloadedModel {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/**
 * Downloads a file to a temporary path beside `out` while hashing it, then renames it to `out` only
 * when its SHA-256 is the expected one; otherwise the temporary file is removed and nothing at `out`
 * changes.
 * @throws {ModelChecksumMismatchError} when the bytes received do not have the expected sha256.
 * @throws {ModelDownloadError} for a bad URL or checksum argument, an HTTP error status or a network
 * failure (the cause is kept).
 * @throws the signal's reason when aborted.
 * @example
 * ```ts
 * await downloadModel({ url, sha256, out: "/opt/ml/model/model.gguf", onProgress: (p) => log(p) });
 * ```
 */
export async function downloadModel(options: DownloadModelOptions): Promise<DownloadedModel> {
  const { url, signal, onProgress } = options;
  const expected = options.sha256.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(expected)) {
    throw new ModelDownloadError(`sha256 must be 64 hex characters, got "${options.sha256}"`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ModelDownloadError(`not a URL: "${url}"`, { cause: error });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ModelDownloadError(
      `only http and https downloads are supported, got ${parsed.protocol} in ${url}`,
    );
  }
  signal?.throwIfAborted();

  const path = resolve(options.out);
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.download`;
  try {
    const response = await fetch(parsed, { signal, redirect: "follow" }).catch((error: unknown) => {
      if (signal?.aborted) throw signal.reason;
      throw new ModelDownloadError(`cannot download ${url}: ${describe(error)}`, { cause: error });
    });
    if (!response.ok || response.body === null) {
      throw new ModelDownloadError(`cannot download ${url}: HTTP ${response.status} ${response.statusText}`);
    }
    const lengthHeader = response.headers.get("content-length");
    const totalBytes = lengthHeader === null ? undefined : Number(lengthHeader);
    const hash = createHash("sha256");
    let bytesReceived = 0;
    const file = await open(temporary, "w");
    try {
      for await (const chunk of response.body) {
        hash.update(chunk);
        await file.write(chunk);
        bytesReceived += chunk.length;
        onProgress?.({ bytesReceived, totalBytes });
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new ModelDownloadError(`download of ${url} broke off after ${bytesReceived} bytes`, {
        cause: error,
      });
    } finally {
      await file.close();
    }
    const actual = hash.digest("hex");
    if (actual !== expected) {
      throw new ModelChecksumMismatchError(
        `${url} has sha256 ${actual} (${bytesReceived} bytes), expected ${expected}; the download was discarded and ${path} left as it was`,
      );
    }
    await rename(temporary, path);
    return { path, sha256: actual, sizeBytes: bytesReceived };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
