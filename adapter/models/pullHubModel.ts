import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type FileHandle, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ModelChecksumMismatchError, ModelFileError, ModelHubError } from "./errors.js";
import { defaultModelCacheDir } from "./generateModel.js";
import type { HubClient, HubFileMetadata, HubRevisionInfo } from "./HubClient.js";
import { formatHubModelUri, type HubModelRef } from "./hubModelRef.js";
import {
  MODEL_MANIFEST_FILE_NAME,
  type ModelManifest,
  modelManifestPath,
  readModelManifest,
  writeModelManifestFile,
} from "./modelManifest.js";

/** Options of {@link pullHubModel}. */
export interface PullHubModelOptions {
  /** The repository, file and revision to pull. */
  ref: HubModelRef;
  /** Speaks to the hub (its endpoint and token). */
  client: HubClient;
  /**
   * The folder to write the GGUF and its `model-manifest.json` into (created). Default: the cache,
   * `<cacheDir>/<owner>--<name>/<commit>/`.
   */
  out?: string | undefined;
  /** The cache folder. Default {@link defaultHubCacheDir} (`<repo>/.cache/hub`). */
  cacheDir?: string | undefined;
  /** Downloads of one pull when the connection breaks, each resuming where the last stopped. Default 3. */
  attempts?: number;
  /** Called as bytes arrive. Default: none. */
  onProgress?: (progress: PullProgress) => void;
  /** Told what the pull does (the pinned commit, a resume, a retry), one line each. Default: none. */
  onNote?: (line: string) => void;
  /** Stops the pull; the bytes received are kept for the next pull to resume. */
  signal?: AbortSignal;
}

/** Progress of a download. */
export interface PullProgress {
  /** Bytes of the file on disk, those of earlier (resumed) downloads included. */
  bytesReceived: number;
  totalBytes: number;
  /** Where this download started: above 0 when it resumed. */
  resumedFrom: number;
}

/** What {@link pullHubModel} left on disk. */
export interface PulledModel {
  /** Absolute path of the GGUF. */
  path: string;
  /** Its manifest, as written beside it. */
  manifest: ModelManifest;
  repo: string;
  /** Path of the file in the repository. */
  file: string;
  /** The revision asked for. */
  revision: string;
  /** The commit sha it resolved to, the one pulled. */
  commit: string;
  sha256: string;
  sizeBytes: number;
  license: string | null;
  /** False when the file was already there, verified (nothing was downloaded). */
  downloaded: boolean;
  /** The byte the download resumed from, when it continued an earlier one. */
  resumedFrom: number | undefined;
}

/** Suffix of a download in progress: never taken for a model (`.gguf`) by anything that looks for one. */
export const PARTIAL_SUFFIX = ".part";

const GGUF_MAGIC = Buffer.from("GGUF", "latin1");

/** The cache of pulled models, `<repo>/.cache/hub`, beside the generated models' `.cache/models`. */
export function defaultHubCacheDir(): string {
  return join(dirname(defaultModelCacheDir()), "hub");
}

/** The cache folder of one repository's commit: `<cacheDir>/<owner>--<name>/<commit>`. */
export function hubCacheFolder(cacheDir: string, repo: string, commit: string): string {
  return join(resolve(cacheDir), repo.replace("/", "--"), commit);
}

const pending = new Map<string, Promise<PulledModel>>();

/**
 * Pulls one GGUF from a hub repository, pinned: resolves the revision to its commit sha, reads the
 * sha256 and size the hub states for the file at that commit, downloads it (resuming a cut
 * download with `Range`), verifies both, and only then renames it into place and writes
 * `model-manifest.json` (repository, file, commit, sha256, size, license) beside it. The bytes in
 * flight live in `<file>.<sha256 prefix>.part`, which no model lookup takes for a GGUF; a download
 * that breaks keeps it for the next pull, one whose bytes are wrong removes it.
 *
 * A file already in place is verified (sha256) and kept: nothing is downloaded. With a full commit
 * sha as the revision and the file in the cache, the hub is not asked at all.
 *
 * @throws {ModelHubError} `repo-not-found`, `revision-not-found`, `gated`, `unauthorized`,
 *   `rate-limited`, `http`, `network`, `protocol`; `file-not-found` or `not-gguf` (both with
 *   `ggufFiles`, the revision's GGUF files); `interrupted` (a resume is possible), `write-failed`,
 *   `busy`.
 * @throws {ModelChecksumMismatchError} when the bytes are not those the hub states (they are removed).
 * @throws the signal's reason when aborted.
 * @example
 * ```ts
 * const client = new HubClient({ endpoint: env.HF_ENDPOINT, token: env.HF_TOKEN });
 * const { path, commit } = await pullHubModel({
 *   ref: { repo: "Qwen/Qwen3-0.6B-GGUF", file: "Qwen3-0.6B-Q8_0.gguf", revision: "main" },
 *   client,
 * });
 * ```
 */
export function pullHubModel(options: PullHubModelOptions): Promise<PulledModel> {
  // One pull per file and place in this process: a second caller waits for the first.
  const key = JSON.stringify([options.client.endpoint, options.ref, options.out, options.cacheDir]);
  let job = pending.get(key);
  if (job === undefined) {
    job = pull(options).finally(() => pending.delete(key));
    pending.set(key, job);
  }
  return job;
}

async function pull(options: PullHubModelOptions): Promise<PulledModel> {
  const { ref, client, signal } = options;
  const note = options.onNote ?? (() => undefined);
  const cacheDir = options.cacheDir ?? defaultHubCacheDir();
  const name = basename(ref.file);

  // A commit sha names the bytes for good: a cached pull of it needs no request at all.
  if (/^[0-9a-f]{40}$/.test(ref.revision) && options.out === undefined) {
    const cached = await cachedModel(join(hubCacheFolder(cacheDir, ref.repo, ref.revision), name), ref);
    if (cached !== undefined) return cached;
  }

  const info = await client.revisionInfo(ref.repo, ref.revision, signal);
  requireGgufFile(ref, info, client);
  note(`${ref.repo}@${ref.revision} is commit ${info.commit}`);
  const metadata = await client.fileMetadata(ref.repo, info.commit, ref.file, signal);
  const expected = expectedFile(ref, info, metadata);

  const folder = resolve(options.out ?? hubCacheFolder(cacheDir, ref.repo, info.commit));
  const path = join(folder, name);
  await makeFolder(folder);
  await refuseOtherManifest(folder, name);

  const manifest: ModelManifest = {
    file: name,
    sha256: expected.sha256,
    size_bytes: expected.size,
    source: `hf:${ref.repo}/${ref.file}`,
    revision: info.commit,
    created_at: new Date().toISOString(),
    repo: ref.repo,
    commit: info.commit,
    license: info.license,
  };
  const result = { path, manifest, ...ref, commit: info.commit, license: info.license };
  const base = { ...result, sha256: expected.sha256, sizeBytes: expected.size };

  if (await hasFile(path, expected)) {
    await writeManifest(path, manifest, await readManifestIfAny(path));
    note(`${path} is already there and verified; nothing downloaded`);
    return { ...base, downloaded: false, resumedFrom: undefined };
  }

  const part = join(folder, `${name}.${expected.sha256.slice(0, 16)}${PARTIAL_SUFFIX}`);
  const lock = await takeLock(part);
  try {
    const resumedFrom = await download({
      client,
      url: metadata.downloadUrl,
      part,
      expected,
      attempts: options.attempts ?? 3,
      onProgress: options.onProgress,
      note,
      signal,
      uri: formatHubModelUri({ ...ref, revision: info.commit }),
    });
    try {
      await rename(part, path);
    } catch (error) {
      throw writeError(error, path, undefined);
    }
    await writeManifest(path, manifest, undefined);
    return { ...base, downloaded: true, resumedFrom: resumedFrom > 0 ? resumedFrom : undefined };
  } finally {
    await lock.release();
  }
}

/** The size and sha256 to expect, from the `HEAD` (`X-Linked-Size`, `X-Linked-Etag`) and the revision's listing. */
function expectedFile(
  ref: HubModelRef,
  info: HubRevisionInfo,
  metadata: HubFileMetadata,
): { sha256: string; size: number } {
  const sibling = info.siblings.find((entry) => entry.name === ref.file);
  if (metadata.commit !== undefined && metadata.commit !== info.commit) {
    throw new ModelHubError(
      `the hub resolved ${ref.file} at commit ${metadata.commit}, not at the pinned ${info.commit}`,
      "protocol",
    );
  }
  const sha256 = metadata.sha256 ?? sibling?.sha256;
  if (sha256 === undefined) {
    throw new ModelHubError(
      `the hub states no sha256 for ${ref.repo}/${ref.file} (no X-Linked-Etag, no LFS sha256): it cannot be verified, so it is not pulled`,
      "protocol",
    );
  }
  if (sibling?.sha256 !== undefined && sibling.sha256 !== sha256) {
    throw new ModelHubError(
      `the hub states two sha256 for ${ref.repo}/${ref.file}: ${sha256} (X-Linked-Etag) and ${sibling.sha256} (the revision's listing); not pulled`,
      "protocol",
    );
  }
  const size = metadata.size ?? sibling?.size;
  if (size === undefined) {
    throw new ModelHubError(
      `the hub states no size for ${ref.repo}/${ref.file} (no X-Linked-Size)`,
      "protocol",
    );
  }
  return { sha256, size };
}

/**
 * Refuses a file the revision does not have, or one that is no GGUF by its name, listing the GGUF
 * files it has (what the user most likely wanted).
 */
function requireGgufFile(ref: HubModelRef, info: HubRevisionInfo, client: HubClient): void {
  const ggufFiles = info.siblings
    .map((entry) => entry.name)
    .filter((file) => file.toLowerCase().endsWith(".gguf"));
  const listing =
    ggufFiles.length === 0
      ? `it has no GGUF files (${client.repoUrl(ref.repo)} may hold weights in another format)`
      : `its GGUF files: ${ggufFiles.join(", ")}`;
  if (!info.siblings.some((entry) => entry.name === ref.file)) {
    throw new ModelHubError(
      `${ref.repo} has no file "${ref.file}" at ${ref.revision} (commit ${info.commit}); ${listing}`,
      "file-not-found",
      { ggufFiles },
    );
  }
  if (!ref.file.toLowerCase().endsWith(".gguf")) {
    throw new ModelHubError(
      `${ref.file} is not a GGUF file (only .gguf models are served); ${listing}`,
      "not-gguf",
      { ggufFiles },
    );
  }
}

/** The cached model of a pinned commit, when its manifest and bytes are the pull's. */
async function cachedModel(path: string, ref: HubModelRef): Promise<PulledModel | undefined> {
  const manifest = await readManifestIfAny(path);
  if (manifest === undefined || manifest.commit !== ref.revision || manifest.repo !== ref.repo)
    return undefined;
  if (manifest.file !== basename(path) || manifest.source !== `hf:${ref.repo}/${ref.file}`) return undefined;
  if (!(await hasFile(path, { sha256: manifest.sha256, size: manifest.size_bytes }))) return undefined;
  return {
    path,
    manifest,
    ...ref,
    commit: ref.revision,
    sha256: manifest.sha256,
    sizeBytes: manifest.size_bytes,
    license: manifest.license ?? null,
    downloaded: false,
    resumedFrom: undefined,
  };
}

/** Whether `path` holds exactly the expected bytes (size first, then the sha256). */
async function hasFile(path: string, expected: { sha256: string; size: number }): Promise<boolean> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw writeError(error, path, undefined);
  });
  if (found === undefined || !found.isFile() || found.size !== expected.size) return false;
  const hash = createHash("sha256");
  await hashInto(hash, path);
  return hash.digest("hex") === expected.sha256;
}

async function readManifestIfAny(ggufPath: string): Promise<ModelManifest | undefined> {
  const path = modelManifestPath(ggufPath);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) return undefined;
  return readModelManifest(path).catch(() => undefined);
}

/** A manifest belongs to exactly one GGUF: a folder whose manifest names another file is not used. */
async function refuseOtherManifest(folder: string, name: string): Promise<void> {
  const existing = await readManifestIfAny(join(folder, name));
  if (existing !== undefined && existing.file !== name) {
    throw new ModelHubError(
      `${join(folder, MODEL_MANIFEST_FILE_NAME)} describes ${existing.file}: a folder holds one model; choose another --out`,
      "write-failed",
    );
  }
}

/** Writes the manifest unless the one there already says the same (its date aside). */
async function writeManifest(
  path: string,
  manifest: ModelManifest,
  existing: ModelManifest | undefined,
): Promise<void> {
  if (existing !== undefined && sameManifest(existing, manifest)) return;
  await writeModelManifestFile(path, manifest).catch((error: unknown) => {
    throw writeError(
      error instanceof ModelFileError && error.cause !== undefined ? error.cause : error,
      modelManifestPath(path),
      undefined,
    );
  });
}

function sameManifest(a: ModelManifest, b: ModelManifest): boolean {
  return JSON.stringify({ ...a, created_at: "" }) === JSON.stringify({ ...b, created_at: "" });
}

async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw writeError(error, folder, undefined);
  }
}

interface DownloadContext {
  client: HubClient;
  url: string;
  part: string;
  expected: { sha256: string; size: number };
  attempts: number;
  onProgress: PullHubModelOptions["onProgress"];
  note: (line: string) => void;
  signal: AbortSignal | undefined;
  uri: string;
}

/**
 * Fills `part` with the file's bytes, resuming from what it holds, and checks them: size, GGUF
 * magic, sha256. A broken connection is resumed up to `attempts` downloads in all.
 * @returns the byte the first download of this pull resumed from (0 for a fresh one).
 */
async function download(context: DownloadContext): Promise<number> {
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
        await hashInto(hash, part);
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
async function receive(context: DownloadContext, have: number): Promise<Hash> {
  const { client, url, part, expected, signal } = context;
  const resumed = createHash("sha256");
  if (have > 0) await hashInto(resumed, part);
  const opened = await client.download(url, have, signal);
  let position = opened.start;
  // A server that sends the whole file again (200, not 206) starts the part and the hash afresh.
  const hash = position === 0 ? createHash("sha256") : resumed;
  let file: FileHandle;
  try {
    file = await open(part, position === 0 ? "w" : "a");
  } catch (error) {
    await opened.body.cancel();
    throw writeError(error, part, undefined);
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
          throw writeError(error, part, position);
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
        `the download of ${context.uri} broke off at byte ${position} of ${expected.size} (${describe(error)}); those bytes are kept in ${part} and the next pull resumes from there`,
        "interrupted",
        { cause: error },
      );
    }
    try {
      await file.sync();
    } catch (error) {
      throw writeError(error, part, position);
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
    throw writeError(error, part, undefined);
  });
  return found?.size ?? 0;
}

async function hashInto(hash: Hash, path: string): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

/** A lock beside the part (`<part>.lock`, holding the pid): one download per part across processes. */
async function takeLock(part: string): Promise<{ release: () => Promise<void> }> {
  const lock = `${part}.lock`;
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      await writeFile(lock, String(process.pid), { flag: "wx" });
      return { release: () => rm(lock, { force: true }) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw writeError(error, lock, undefined);
      const owner = Number(await readFile(lock, "utf8").catch(() => ""));
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new ModelHubError(
          `process ${owner} is already pulling into ${part}; wait for it to end (or remove ${lock} if no pull runs)`,
          "busy",
        );
      }
      // The pull that held it ended without removing it: taken over.
      await rm(lock, { force: true });
    }
  }
  throw new ModelHubError(`cannot take the lock ${lock}`, "busy");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A failed write, named for what the person can do: free space, or pick a folder they may write. */
function writeError(error: unknown, path: string, kept: number | undefined): ModelHubError {
  const code = (error as NodeJS.ErrnoException).code;
  const keptText =
    kept === undefined || kept === 0
      ? ""
      : `; the ${kept} bytes received are kept in ${path} and the next pull resumes from there`;
  const why =
    code === "ENOSPC" || code === "EDQUOT"
      ? `no space left on the device holding ${path}: free some (or pull to another --out)`
      : code === "EACCES" || code === "EPERM" || code === "EROFS"
        ? `${path} cannot be written (${code}): choose a folder you can write with --out`
        : `cannot write ${path} (${code ?? describe(error)})`;
  return new ModelHubError(`${why}${keptText}`, "write-failed", { cause: error });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
