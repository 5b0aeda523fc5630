/**
 * The entry points: the files that start a process or a Lambda function's work, the only ones that
 * read (or write) `process.env`. Below them, a unit takes what it needs as a parameter — a
 * settings object read once by the settings kit, or the environment itself for a child process it
 * starts. docs/architecture.md lists them (`writeArchitecturePage.ts`); test/architecture/processEnv.test.ts
 * fails when any other source file touches `process.env`.
 */

/** A kind of entry point: a path pattern (`*` is a run of characters without `/`) and what it is. */
export interface EntryPoint {
  /** From the repository root; `*` matches within one path segment, `**` any folders. */
  readonly pattern: string;
  readonly what: string;
}

/** Every kind of entry point of this repository. */
export const ENTRY_POINTS: readonly EntryPoint[] = [
  {
    pattern: "functions/*/handler.ts",
    what: "a Lambda function's handler (the review console's API included): reads its settings once at cold start and wires the units",
  },
  {
    pattern: "bin/*.js",
    what: "the `decisions` command's entry: checks the Node.js version, sets the process-wide defaults",
  },
  { pattern: "cli/main.ts", what: "the command line: picks the command and runs it" },
  {
    pattern: "cli/commands/*Command.ts",
    what: "a command: the registry loads one per `decisions` process; it reads its variables and passes them on",
  },
  {
    pattern: "**/*Main.ts",
    what: "a child process's entry (the adapter and the SageMaker gateway of the local stack, the console site's writer)",
  },
  {
    pattern: "lab/scripts/write*.ts",
    what: "a script run with `node --import tsx` that writes generated files",
  },
];

/** The regular expression of a pattern of {@link EntryPoint}. */
function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((segment) =>
      segment === "**"
        ? "(?:[^/]+/)*"
        : `${segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}/`,
    )
    .join("");
  return new RegExp(`^${source.slice(0, -1)}$`);
}

/** Whether a file (a path from the repository root) is an entry point by {@link ENTRY_POINTS}. */
export function isEntryPoint(file: string, entryPoints: readonly EntryPoint[] = ENTRY_POINTS): boolean {
  return entryPoints.some((entry) => patternRegExp(entry.pattern).test(file));
}
