import { type FileHandle, open, readFile, truncate } from "node:fs/promises";
import type { Outcome } from "../../core/outcomes/index.js";
import type { OutcomeSink, RecordResult } from "../../core/pipeline/index.js";
import { InputFileError } from "../common/errors.js";

/** What {@link ResultsFile.open} found in an existing results file. */
export interface ResumeState {
  /** `policy \u0000 id` of every outcome already written. */
  done: Set<string>;
  /** Complete lines found. */
  lines: number;
  /** Bytes of an unfinished last line (a run killed while writing it) that were cut off; 0 if none. */
  truncatedBytes: number;
}

/** The key of an outcome in a results file: its policy and id. */
export function resultKey(policy: string, id: string): string {
  return `${policy}\u0000${id}`;
}

/**
 * The JSONL file `decisions classify` writes, one outcome per line: the pipeline core's outcome
 * sink for an offline run. Write-once per (policy, id) like the outcomes table: a second outcome
 * for a key the file holds is not written, the first stands. Lines are appended in the order they
 * are recorded and written through one at a time, so a killed run loses only outcomes not yet
 * appended (the rerun decides them again). Opening an existing file reads which outcomes it holds
 * (the core skips them, {@link holds}) and cuts off an unfinished last line.
 */
export class ResultsFile implements OutcomeSink {
  readonly path: string;
  readonly #handle: FileHandle;
  /** Keys of the outcomes in the file, and of those being appended. */
  readonly #held: Set<string>;
  /** The last append: each waits for the one before, so lines keep the order they were recorded in. */
  #tail: Promise<void> = Promise.resolve();

  private constructor(path: string, handle: FileHandle, held: Set<string>) {
    this.path = path;
    this.#handle = handle;
    this.#held = held;
  }

  /**
   * Opens (or creates) the results file for appending.
   * @throws InputFileError when a complete line of it is not an outcome (`policy` and `id` strings),
   *   or it cannot be read or written.
   */
  static async open(path: string): Promise<{ file: ResultsFile; resume: ResumeState }> {
    const resume: ResumeState = { done: new Set(), lines: 0, truncatedBytes: 0 };
    let text = "";
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw new InputFileError(path, `cannot be read (${(error as NodeJS.ErrnoException).code})`, {
          cause: error,
        });
      }
    }
    const end = text.lastIndexOf("\n") + 1;
    if (end < text.length) {
      resume.truncatedBytes = Buffer.byteLength(text.slice(end), "utf8");
      await truncate(path, Buffer.byteLength(text.slice(0, end), "utf8"));
    }
    text
      .slice(0, end)
      .split("\n")
      .forEach((line, index) => {
        if (line.trim() === "") return;
        let value: { policy?: unknown; id?: unknown };
        try {
          value = JSON.parse(line) as typeof value;
        } catch (error) {
          throw new InputFileError(
            path,
            `line ${index + 1} is not JSON: it is not a results file of decisions classify`,
            {
              cause: error,
            },
          );
        }
        if (typeof value.policy !== "string" || typeof value.id !== "string") {
          throw new InputFileError(path, `line ${index + 1} is not an outcome (no policy and id)`);
        }
        resume.done.add(resultKey(value.policy, value.id));
        resume.lines += 1;
      });
    let handle: FileHandle;
    try {
      handle = await open(path, "a");
    } catch (error) {
      throw new InputFileError(path, `cannot be written (${(error as NodeJS.ErrnoException).code})`, {
        cause: error,
      });
    }
    return { file: new ResultsFile(path, handle, new Set(resume.done)), resume };
  }

  /** Whether the file holds (or is appending) an outcome for (policy, id). */
  holds(policy: string, id: string): boolean {
    return this.#held.has(resultKey(policy, id));
  }

  /**
   * Appends the outcome as a line unless the file holds one for its (policy, id); resolves once
   * the operating system has the line.
   *
   * @throws the file system's error when the line cannot be written (the key is then free again).
   */
  async record(outcome: Outcome): Promise<RecordResult> {
    const key = resultKey(outcome.policy, outcome.id);
    if (this.#held.has(key)) return { recorded: false, existing: undefined };
    // Claimed before the append starts: a second outcome for the key, recorded meanwhile, finds it held.
    this.#held.add(key);
    const line = `${JSON.stringify(outcome)}\n`;
    const written = this.#tail.then(async () => {
      await this.#handle.write(line);
    });
    this.#tail = written.catch(() => undefined);
    try {
      await written;
    } catch (error) {
      this.#held.delete(key);
      throw error;
    }
    return { recorded: true, outcome };
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.#handle.close();
  }
}
