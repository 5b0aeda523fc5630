import { ModelHubError } from "./errors.js";

/**
 * A failed write of a pull, as a {@link ModelHubError} (`write-failed`) named for what the person can
 * do: free space, or pick a folder they may write.
 * @param kept bytes received so far that stay in `path` for the next pull to resume, if any.
 */
export function hubWriteError(error: unknown, path: string, kept: number | undefined): ModelHubError {
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
        : `cannot write ${path} (${code ?? describeError(error)})`;
  return new ModelHubError(`${why}${keptText}`, "write-failed", { cause: error });
}

/** An error's message with its cause's, for a line of text. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
