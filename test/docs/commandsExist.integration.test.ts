/**
 * The docs name only commands and flags that exist: every `node bin/decisions.js <command> …` in a
 * Markdown file of the repository, and every row of docs/cli.md's command table, is checked against
 * what `decisions help` and `decisions help <command>` print. Runs the compiled command, like a
 * reader would (`npm ci` or `npm run build` first).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * One V8 compile cache for the ~20 `decisions help` processes of this file (Node.js 22's
 * NODE_COMPILE_CACHE): the first compiles the CLI's modules, the others load them compiled, a
 * third less CPU each. Only the children's environment has it.
 */
const COMPILE_CACHE = mkdtempSync(join(tmpdir(), "commands-exist-cache-"));
after(() => rmSync(COMPILE_CACHE, { recursive: true, force: true }));

/** What `node bin/decisions.js help [command]` prints. */
function help(...command: string[]): string {
  const run = spawnSync(process.execPath, ["bin/decisions.js", "help", ...command], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE },
  });
  assert.equal(run.status, 0, `decisions help ${command.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/** The Markdown files git tracks. */
function markdownFiles(): string[] {
  const listed = spawnSync("git", ["ls-files", "-z", "*.md"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(listed.status, 0, listed.stderr);
  return listed.stdout.split("\0").filter((path) => path !== "");
}

/** A documented use of a command: where, which command, which flags. */
interface Use {
  where: string;
  command: string;
  flags: string[];
}

const FLAG = /(?<![\w-])--[a-z][a-z0-9-]*/g;

/** The flags of one command line, up to where a shell or the prose moves on to something else. */
function flagsOf(rest: string): string[] {
  const own = rest.split(/\s(?:#|&&|\|\||;|\|)\s|`/)[0] ?? "";
  return [...own.matchAll(FLAG)].map((match) => match[0]);
}

/** Every `node bin/decisions.js <command> …` in `text`. */
function usesIn(path: string, text: string): Use[] {
  const uses: Use[] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/node bin\/decisions\.js\s+([a-z][a-z-]*)([^\n]*)/g)) {
      const command = match[1] ?? "";
      if (command === "help") continue;
      uses.push({ where: `${path}:${index + 1}`, command, flags: flagsOf(match[2] ?? "") });
    }
  });
  return uses;
}

/** The rows of docs/cli.md's command table: `| \`name [flags…]\` | what it does |`. */
function tableRows(text: string): Use[] {
  const section = /^## Commands\n([\s\S]*?)(?=^## )/m.exec(text)?.[1] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\| `[a-z]/.test(line))
    .map((line) => {
      const cell = /^\| `([^|]*(?:\\\|[^|]*)*)` \|/.exec(line)?.[1] ?? "";
      return {
        where: `docs/cli.md: ${cell}`,
        command: cell.split(/\s/)[0] ?? "",
        flags: [...cell.matchAll(FLAG)].map((match) => match[0]),
      };
    });
}

describe("the commands the docs name", () => {
  it("exist, with the flags the docs give them", () => {
    const listed = help();
    const commands = new Set([...listed.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((match) => match[1]));
    const uses = [
      ...markdownFiles().flatMap((path) => usesIn(path, readFileSync(join(ROOT, path), "utf8"))),
      ...tableRows(readFileSync(join(ROOT, "docs", "cli.md"), "utf8")),
    ];
    const helpOf = new Map<string, string>();
    const problems: string[] = [];

    for (const use of uses) {
      if (!commands.has(use.command)) {
        problems.push(`${use.where}: no command ${use.command}`);
        continue;
      }
      const text = helpOf.get(use.command) ?? help(use.command);
      helpOf.set(use.command, text);
      for (const flag of use.flags) {
        if (flag === "--help") continue;
        if (!new RegExp(`${flag}(?![a-z0-9-])`).test(text)) {
          problems.push(`${use.where}: decisions help ${use.command} shows no ${flag}`);
        }
      }
    }

    assert.ok(uses.length >= 30, `only ${uses.length} uses found: is the pattern still right?`);
    assert.ok(commands.size >= 10, `decisions help listed ${commands.size} commands`);
    assert.deepEqual(problems, []);
  });

  it("are read from prose, code and the command table alike", () => {
    assert.deepEqual(usesIn("x.md", "run `node bin/decisions.js bench --quick` then --not-this"), [
      { where: "x.md:1", command: "bench", flags: ["--quick"] },
    ]);
    assert.deepEqual(usesIn("x.md", "node bin/decisions.js up > stack.json &  # {--nope}")[0]?.flags, []);
    assert.deepEqual(
      tableRows("## Commands\n\n| `dlq list\\|redrive --queue-url <dlq> [--to <q>]` | x |\n## Next\n"),
      [
        {
          where: "docs/cli.md: dlq list\\|redrive --queue-url <dlq> [--to <q>]",
          command: "dlq",
          flags: ["--queue-url", "--to"],
        },
      ],
    );
  });
});
