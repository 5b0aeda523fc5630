import { type FileHandle, open, readFile, truncate } from "node:fs/promises";
import { InputFileError } from "../shared/errors.js";

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
 * The JSONL file `decisions classify` writes, one outcome per line, appended and written through
 * to the file one line at a time, so a killed run loses at most the item in flight. Opening an
 * existing file reads which outcomes it holds (to skip them) and cuts off an unfinished last line.
 */
export class ResultsFile {
  readonly path: string;
  readonly #handle: FileHandle;

  private constructor(path: string, handle: FileHandle) {
    this.path = path;
    this.#handle = handle;
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
    return { file: new ResultsFile(path, handle), resume };
  }

  /** Appends one outcome as a line; resolves once the operating system has it. */
  async append(outcome: unknown): Promise<void> {
    await this.#handle.write(`${JSON.stringify(outcome)}\n`);
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.#handle.close();
  }
}
