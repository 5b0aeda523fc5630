import { createHash } from "node:crypto";
import { mkdir, rename, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { downloadToPart, hashFileInto, type PullProgress } from "./downloadToPart.js";
import { ModelFileError, ModelHubError } from "./errors.js";
import { defaultModelCacheDir } from "./generateModel.js";
import type { HubClient, HubFileMetadata, HubRevisionInfo } from "./HubClient.js";
import { formatHubModelUri, type HubModelRef } from "./hubModelRef.js";
import { hubWriteError } from "./hubWriteError.js";
import {
  MODEL_MANIFEST_FILE_NAME,
  type ModelManifest,
  modelManifestPath,
  readModelManifest,
  writeModelManifestFile,
} from "./modelManifest.js";
import { takePartLock } from "./takePartLock.js";

export type { PullProgress } from "./downloadToPart.js";

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
  const lock = await takePartLock(part);
  try {
    const resumedFrom = await downloadToPart({
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
      throw hubWriteError(error, path, undefined);
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
    throw hubWriteError(error, path, undefined);
  });
  if (found === undefined || !found.isFile() || found.size !== expected.size) return false;
  const hash = createHash("sha256");
  await hashFileInto(hash, path);
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
    throw hubWriteError(
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
    throw hubWriteError(error, folder, undefined);
  }
}
