/**
 * The repository stands alone: no tracked text file cites the design notes that live outside it,
 * and no relative path climbs to a `shared` folder that is not one of this repository's own.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

// Built from parts, so that this file does not itself hold the names it looks for.
const OUTSIDE_NOTES = [["DESIGN", "md"].join("."), ["STYLE", "md"].join(".")];
const CLIMB_TO_SHARED = /((?:\.\.[\\/])+)shared\b/g;

/** The files git tracks, relative to the repository. */
function trackedFiles(): string[] {
  const listed = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(listed.status, 0, `git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split("\0").filter((path) => path !== "");
}

/** A file's text, or undefined for a binary file (a NUL byte in its first 8 KiB) or one not on disk. */
function textOf(path: string): string | undefined {
  const file = join(ROOT, path);
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  const bytes = readFileSync(file);
  return bytes.subarray(0, 8192).includes(0) ? undefined : bytes.toString("utf8");
}

/** Every place in `text` (a file at `path`) that refers outside the repository. */
function outsideReferences(path: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    for (const name of OUTSIDE_NOTES) {
      if (line.includes(name)) found.push(`${path}:${index + 1}: names ${name}`);
    }
    for (const match of line.matchAll(CLIMB_TO_SHARED)) {
      const folder = resolve(ROOT, dirname(path), match[0]);
      const inside = folder.startsWith(ROOT.endsWith(sep) ? ROOT : ROOT + sep);
      if (!inside || !existsSync(folder) || !statSync(folder).isDirectory()) {
        found.push(
          `${path}:${index + 1}: ${match[0]} is ${inside ? relative(ROOT, folder) : folder}, not a folder of this repository`,
        );
      }
    }
  });
  return found;
}

describe("the repository stands alone", () => {
  it("no tracked text file refers to design notes or shared folders outside it", () => {
    const files = trackedFiles();
    const found = files.flatMap((path) => {
      const text = textOf(path);
      return text === undefined ? [] : outsideReferences(path, text);
    });

    assert.ok(files.length > 100, `only ${files.length} tracked files`);
    assert.deepEqual(found, []);
  });

  it("flags a climb to a shared folder the repository does not have (its common helpers live in common/)", () => {
    const notes = OUTSIDE_NOTES[0] ?? "";
    const up = ".."; // the paths below are built, so that this file holds none of them
    assert.match(
      outsideReferences("functions/decide/x.ts", `import { Deadline } from "${up}/shared/Deadline.js";`)[0] ??
        "",
      /not a folder of this repository/,
    );
    assert.equal(outsideReferences("functions/README.md", `see ${up}/shared/${notes}`).length, 2);
    assert.match(
      outsideReferences("README.md", `[notes](${up}/shared/notes.md)`)[0] ?? "",
      /not a folder of this repository/,
    );
    assert.match(
      outsideReferences("docs/x.md", `${up}/${up}/shared`)[0] ?? "",
      /not a folder of this repository/,
    );
  });
});
