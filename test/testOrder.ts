/**
 * The order in which `npm test` starts its test files: heaviest first, so that the two workers end
 * together instead of one of them starting the image build or the chaos run last while the other
 * sits idle (measured: 78 % busy when the files started in name order).
 *
 * A file's weight is the seconds it took in a recorded run (`test/testWeights.json`, written by
 * `npm test` when `DECISIONS_TEST_WEIGHTS_OUT` names a file); a file not recorded there is weighed
 * by its kind, model and integration tests before unit tests.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";

/** Seconds assumed for a test file that no recorded run measured, by its kind (its name's suffix). */
export const DEFAULT_WEIGHTS = {
  "model.test.ts": 30,
  "integration.test.ts": 30,
  "test.ts": 2,
} as const;

/** Every test file (`*.test.ts` under `test/`), relative to `root` with `/`, in name order. */
export function findTestFiles(root: string): string[] {
  return readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })
    .map((file) => `test/${file.split(sep).join("/")}`)
    .filter((file) => file.endsWith(".test.ts"))
    .sort();
}

/** The seconds a file is expected to take: its recorded weight, else its kind's default. */
export function weightOf(file: string, recorded: Readonly<Record<string, number>>): number {
  const seconds = recorded[file];
  if (seconds !== undefined) return seconds;
  if (file.endsWith(".model.test.ts")) return DEFAULT_WEIGHTS["model.test.ts"];
  if (file.endsWith(".integration.test.ts")) return DEFAULT_WEIGHTS["integration.test.ts"];
  return DEFAULT_WEIGHTS["test.ts"];
}

/** `files` heaviest first (ties in name order), weighed by {@link weightOf}. */
export function heaviestFirst(
  files: readonly string[],
  recorded: Readonly<Record<string, number>>,
): string[] {
  return [...files].sort((a, b) => weightOf(b, recorded) - weightOf(a, recorded) || a.localeCompare(b));
}

/**
 * Splits `files` into `count` lists whose weights are as even as a greedy split makes them (each
 * file, heaviest first, goes to the lightest list so far); each list keeps heaviest first.
 *
 * Files for which `groupOf` names a group go into one list together (the group weighs what its
 * files weigh): the unit run loads a list into one process, where files of a group share what
 * they build once per process (the infra tests' synthesized CDK app).
 */
export function splitEvenly(
  files: readonly string[],
  count: number,
  recorded: Readonly<Record<string, number>>,
  groupOf: (file: string) => string | undefined = () => undefined,
): string[][] {
  const units = new Map<string, { files: string[]; seconds: number }>();
  for (const file of heaviestFirst(files, recorded)) {
    const key = groupOf(file) ?? `file:${file}`;
    const unit = units.get(key) ?? { files: [], seconds: 0 };
    unit.files.push(file);
    unit.seconds += weightOf(file, recorded);
    units.set(key, unit);
  }
  const lists = Array.from({ length: count }, () => ({ files: [] as string[], seconds: 0 }));
  for (const unit of [...units.values()].sort((a, b) => b.seconds - a.seconds)) {
    const lightest = lists.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(...unit.files);
    lightest.seconds += unit.seconds;
  }
  return lists.map((list) => heaviestFirst(list.files, recorded));
}

/**
 * The unit files of `npm test` in groups, each to be loaded into one process (node's process per
 * file costs more than most unit files' tests take): one group per shared-process folder that has
 * files (`sharedFolderOf`), the other files split into `count` groups of nearly equal weight. Each
 * group has a name, its key in the weights file; a group not recorded there weighs what its files'
 * recorded weights sum to.
 */
export function unitGroups(
  files: readonly string[],
  count: number,
  recorded: Readonly<Record<string, number>>,
  sharedFolderOf: (file: string) => string | undefined,
): { name: string; files: string[]; seconds: number }[] {
  const shared = new Map<string, string[]>();
  const rest: string[] = [];
  for (const file of heaviestFirst(files, recorded)) {
    const folder = sharedFolderOf(file);
    if (folder === undefined) rest.push(file);
    else shared.set(folder, [...(shared.get(folder) ?? []), file]);
  }
  const lists = splitEvenly(rest, Math.min(count, rest.length), recorded).filter((list) => list.length > 0);
  const named = [
    ...[...shared].map(([folder, list]) => ({ name: `unit group ${folder}`, files: list })),
    ...lists.map((list, index) => ({ name: `unit group ${index + 1} of ${lists.length}`, files: list })),
  ];
  return named.map(({ name, files: list }) => ({
    name,
    files: list,
    seconds: recorded[name] ?? list.reduce((sum, file) => sum + weightOf(file, recorded), 0),
  }));
}

/**
 * The unit files' weights as they cost loaded into shared processes, for splitting `npm run
 * test:unit`: each file's recorded weight was measured in a process of its own (its start-up
 * included), each unit group's in a shared one. So the files of a shared-process folder are scaled
 * to sum to their folder group's recorded weight, the other files to sum to the other groups'
 * weights together; files of a part with no recorded group keep their own weights.
 */
export function sharedProcessWeights(
  files: readonly string[],
  recorded: Readonly<Record<string, number>>,
  sharedFolderOf: (file: string) => string | undefined,
): Record<string, number> {
  const parts = new Map<string, string[]>();
  for (const file of files) {
    const folder = sharedFolderOf(file);
    const key = folder === undefined ? "" : folder;
    parts.set(key, [...(parts.get(key) ?? []), file]);
  }
  const groups = Object.entries(recorded).filter(([key]) => isUnitGroupName(key));
  const weights: Record<string, number> = {};
  for (const [folder, list] of parts) {
    const groupSeconds =
      folder === ""
        ? groups.filter(([key]) => / \d+ of \d+$/.test(key)).reduce((sum, [, seconds]) => sum + seconds, 0)
        : (recorded[`unit group ${folder}`] ?? 0);
    const filesSeconds = list.reduce((sum, file) => sum + weightOf(file, recorded), 0);
    const scale = groupSeconds > 0 && filesSeconds > 0 ? groupSeconds / filesSeconds : 1;
    for (const file of list) weights[file] = weightOf(file, recorded) * scale;
  }
  return weights;
}

/** Whether a key of the weights file names a unit group of {@link unitGroups}. */
export function isUnitGroupName(key: string): boolean {
  return key.startsWith("unit group ");
}

/** The path of the recorded weights, relative to the repository root. */
export const WEIGHTS_FILE = "test/testWeights.json";

/** The recorded weights (seconds per file); none when the file is absent. */
export function readWeights(root: string): Record<string, number> {
  let text: string;
  try {
    text = readFileSync(join(root, WEIGHTS_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  return JSON.parse(text) as Record<string, number>;
}
