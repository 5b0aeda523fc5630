/** What a process holds, read from /proc (Linux): resident memory and open file descriptors. */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";

/** One sample of a process. */
export interface ProcessSample {
  /** Milliseconds since the run started. */
  atMs: number;
  /** Resident set size in bytes (`VmRSS`). */
  rssBytes: number;
  /** Open file descriptors (entries of /proc/<pid>/fd). */
  fds: number;
}

/**
 * Resident memory and open descriptors of `pid`.
 * @throws Error when the process is gone or /proc is not there
 */
export async function readProcessStats(pid: number): Promise<{ rssBytes: number; fds: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (rss === undefined) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  const fds = (await readdir(`/proc/${pid}/fd`)).length;
  return { rssBytes: Number(rss) * 1024, fds };
}

/**
 * Plain files under `dir` whose path below it starts with `prefix` (default: any), and their total
 * size; 0 when `dir` does not exist yet. The adapter's saved state files live in `decisions-state-*`.
 */
export async function countFiles(dir: string, prefix = ""): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  let files = 0;
  let bytes = 0;
  const chosen = entries.filter(
    (item) => item.isFile() && relative(dir, join(item.parentPath, item.name)).startsWith(prefix),
  );
  for (const entry of chosen) {
    // A file the cache evicts between the listing and the stat is simply not counted.
    const size = await stat(join(entry.parentPath, entry.name)).then(
      (info) => info.size,
      (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      },
    );
    if (size === undefined) continue;
    files += 1;
    bytes += size;
  }
  return { files, bytes };
}

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) `pid` has used since it started, from /proc/<pid>/stat; undefined
 * where there is no /proc (macOS) or the process is gone.
 */
export async function readCpuSeconds(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return (user + system) / CLOCK_TICKS_PER_SECOND;
}
