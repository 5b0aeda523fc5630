import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineLogger } from "../EngineLogger.js";

/** One saved sequence state: the tokens it holds and the file that holds it. */
export interface StateFile {
  path: string;
  /** Number of tokens evaluated into the saved state. */
  tokens: number;
  bytes: number;
}

/** Options of {@link StateFileCache}. */
export interface StateFileCacheOptions {
  /** Bound of all files together, in bytes; 0 disables the cache (and no folder is ever made). */
  maxBytes: number;
  /** Where the private folder is made, at the first save. Default: the OS temporary folder. */
  parent?: string;
  /** Told of every failed save or load (`state_file_save_failed`, `state_file_load_failed`, warn). */
  logger?: EngineLogger;
}

/**
 * Saved model states on disk, keyed by the exact tokens they hold, least recently used evicted
 * first so that the files never exceed `maxBytes` together. Lets a request whose state was
 * evaluated earlier — but is no longer the live one — load it instead of evaluating it again.
 *
 * The cache is an optimisation: a save or load that fails (disk full, folder removed, read-only
 * file system) is counted, kept as {@link StateFileCache.lastError} and logged, and never thrown.
 * The files live in a private folder made at the first save and removed by
 * {@link StateFileCache.dispose}.
 */
export class StateFileCache {
  readonly maxBytes: number;
  readonly #parent: string;
  readonly #logger: EngineLogger | undefined;
  readonly #entries = new Map<string, StateFile>();
  #dir: Promise<string> | undefined;
  #bytes = 0;
  #counter = 0;
  #saveFailures = 0;
  #loadFailures = 0;
  #lastError: Error | null = null;

  constructor(options: StateFileCacheOptions) {
    this.maxBytes = Math.max(0, options.maxBytes);
    this.#parent = options.parent ?? tmpdir();
    this.#logger = options.logger;
  }

  /** The key of a token prefix: SHA-256 of its token ids. */
  static keyOf(tokens: readonly number[]): string {
    return createHash("sha256")
      .update(new Uint8Array(Uint32Array.from(tokens).buffer))
      .digest("hex");
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Saves that failed since the cache was made. */
  get saveFailures(): number {
    return this.#saveFailures;
  }

  /** Saved states that failed to load (and were dropped) since the cache was made. */
  get loadFailures(): number {
    return this.#loadFailures;
  }

  /** The error of the last failed save or load; null when none failed. */
  get lastError(): Error | null {
    return this.#lastError;
  }

  /** The saved state for `key`, marked as just used; undefined when there is none. */
  get(key: string): StateFile | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * Saves a state through `save` (which writes the file and returns its size), then evicts the
   * least recently used files until the bound holds. A state larger than the bound is not kept.
   * @returns whether the state is now held; a failed save is counted and logged, never thrown.
   */
  async store(key: string, tokens: number, save: (path: string) => Promise<number>): Promise<boolean> {
    if (this.maxBytes === 0 || this.#entries.has(key)) return this.#entries.has(key);
    let path: string | undefined;
    let bytes: number;
    try {
      this.#dir ??= mkdtemp(join(this.#parent, "decisions-state-"));
      this.#counter += 1;
      path = join(await this.#dir, `${this.#counter}.state`);
      bytes = await save(path);
    } catch (error) {
      this.#saveFailures += 1;
      this.#remember("state_file_save_failed", error, { failures: this.#saveFailures });
      if (path !== undefined) await this.#remove(path);
      return false;
    }
    if (bytes > this.maxBytes || this.#entries.has(key)) {
      // Too large to keep, or another sequence saved the same state meanwhile.
      await this.#remove(path);
      return this.#entries.has(key);
    }
    this.#entries.set(key, { path, tokens, bytes });
    this.#bytes += bytes;
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= old.bytes;
      await this.#remove(old.path);
    }
    return true;
  }

  /** Records that the state saved under `key` could not be loaded, and drops it. */
  async loadFailed(key: string, error: unknown): Promise<void> {
    this.#loadFailures += 1;
    this.#remember("state_file_load_failed", error, { failures: this.#loadFailures });
    await this.drop(key);
  }

  /** Forgets one entry (e.g. a file that holds other tokens than its key) and removes its file. */
  async drop(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    await this.#remove(entry.path);
  }

  /** Removes every saved state; the cache stays usable. */
  async clear(): Promise<void> {
    for (const key of [...this.#entries.keys()]) await this.drop(key);
  }

  /** Removes every file and the folder. */
  async dispose(): Promise<void> {
    this.#entries.clear();
    this.#bytes = 0;
    const dir = this.#dir;
    this.#dir = undefined;
    if (dir === undefined) return;
    // A folder that could not be made has nothing to remove; its failure was counted at the save.
    const made = await dir.then(
      (path) => path,
      () => undefined,
    );
    if (made !== undefined) await this.#remove(made);
  }

  /** Removes a file or folder; a failure (e.g. a read-only file system) is kept and logged, not thrown. */
  async #remove(path: string): Promise<void> {
    try {
      await rm(path, { recursive: true, force: true });
    } catch (error) {
      this.#remember("state_file_remove_failed", error, { path });
    }
  }

  #remember(event: string, error: unknown, fields: Record<string, unknown>): void {
    const kept = error instanceof Error ? error : new Error(String(error));
    this.#lastError = kept;
    this.#logger?.log("warn", event, { ...fields, error: kept });
  }
}
