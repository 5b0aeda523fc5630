import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One saved sequence state: the tokens it holds and the file that holds it. */
export interface StateFile {
  path: string;
  /** Number of tokens evaluated into the saved state. */
  tokens: number;
  bytes: number;
}

/**
 * Saved model states on disk, keyed by the exact tokens they hold, least recently used evicted
 * first so that the files never exceed `maxBytes` together. Lets a request whose state was
 * evaluated earlier — but is no longer the live one — load it instead of evaluating it again.
 * The files live in a private temporary folder removed by {@link StateFileCache.dispose}.
 */
export class StateFileCache {
  readonly maxBytes: number;
  readonly #dir: string;
  readonly #entries = new Map<string, StateFile>();
  #bytes = 0;
  #counter = 0;

  private constructor(dir: string, maxBytes: number) {
    this.#dir = dir;
    this.maxBytes = maxBytes;
  }

  /**
   * @param maxBytes bound of all files together; 0 disables the cache.
   * @param parent where the private folder is made. Default: the OS temporary folder.
   */
  static async create(maxBytes: number, parent: string = tmpdir()): Promise<StateFileCache> {
    return new StateFileCache(await mkdtemp(join(parent, "decisions-state-")), Math.max(0, maxBytes));
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
   */
  async store(key: string, tokens: number, save: (path: string) => Promise<number>): Promise<void> {
    if (this.maxBytes === 0 || this.#entries.has(key)) return;
    this.#counter += 1;
    const path = join(this.#dir, `${this.#counter}.state`);
    const bytes = await save(path);
    if (bytes > this.maxBytes) {
      await rm(path, { force: true });
      return;
    }
    this.#entries.set(key, { path, tokens, bytes });
    this.#bytes += bytes;
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= old.bytes;
      await rm(old.path, { force: true });
    }
  }

  /** Forgets one entry (e.g. a file that failed to load) and removes its file. */
  async drop(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    await rm(entry.path, { force: true });
  }

  /** Removes every saved state; the cache stays usable. */
  async clear(): Promise<void> {
    for (const key of [...this.#entries.keys()]) await this.drop(key);
  }

  /** Removes every file and the folder. */
  async dispose(): Promise<void> {
    this.#entries.clear();
    this.#bytes = 0;
    await rm(this.#dir, { recursive: true, force: true });
  }
}
