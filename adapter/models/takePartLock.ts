import { readFile, rm, writeFile } from "node:fs/promises";
import { ModelHubError } from "./errors.js";
import { hubWriteError } from "./hubWriteError.js";

/**
 * Takes the lock of a partial download: `<part>.lock`, created exclusively and holding this
 * process's pid, so one process at a time writes a part. A lock whose process is gone is taken over.
 * @returns `release`, which removes the lock.
 * @throws {ModelHubError} `busy` while a live process holds it; `write-failed` when it cannot be written.
 */
export async function takePartLock(part: string): Promise<{ release: () => Promise<void> }> {
  const lock = `${part}.lock`;
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      await writeFile(lock, String(process.pid), { flag: "wx" });
      return { release: () => rm(lock, { force: true }) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw hubWriteError(error, lock, undefined);
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
