/**
 * Linux processes as /proc shows them, for tests that check what a command left running: the
 * fields of /proc/<pid>/stat and a process's whole tree.
 */
import { readdirSync, readFileSync } from "node:fs";

/**
 * The fields of a /proc/<pid>/stat line after the command name: the name (field 2) may hold spaces
 * and parentheses, so the fields are counted from its last ")". Index 0 is the state letter
 * (field 3), index 1 the parent's id (field 4).
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** `pid` and every process below it, from the parent ids in /proc/<pid>/stat. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // ended meanwhile
      throw error;
    }
    const parent = statFields(stat)[1];
    if (parent !== undefined) parents.set(Number(entry), Number(parent));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}
