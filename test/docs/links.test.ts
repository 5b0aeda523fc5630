/**
 * The README stays short, and every relative link in it and under docs/ leads to a file of this
 * repository (and, for a link into a Markdown page with a `#fragment`, to one of its headings).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README_MAX_LINES = 150;

/** README.md and every Markdown page under docs/, relative to the repository. */
function pages(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(folder, entry.name))
        : entry.name.endsWith(".md")
          ? [join(folder, entry.name)]
          : [],
    );
  return ["README.md", ...walk("docs")];
}

/** The targets of a page's inline links and images, `[text](target)` and `![alt](target)`, outside code. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? "",
  );
}

/**
 * The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens,
 * a repeated heading suffixed -1, -2…. Written here because the rule is short and the libraries
 * that implement it (github-slugger) are not among this project's dependencies.
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const match of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (match[1] ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Why a link from `page` to `target` is broken, or undefined when it leads somewhere in the repository. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: — not a file of ours
  const [path = "", fragment] = target.split("#", 2);
  const file = path === "" ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
  if (file !== ROOT.replace(/[\\/]$/, "") && !file.startsWith(ROOT.endsWith(sep) ? ROOT : ROOT + sep)) {
    return "points outside the repository";
  }
  if (!existsSync(file)) return `${relative(ROOT, file)} does not exist`;
  if (fragment === undefined || fragment === "" || !file.endsWith(".md") || statSync(file).isDirectory()) {
    return undefined;
  }
  return headingAnchors(readFileSync(file, "utf8")).has(fragment.toLowerCase())
    ? undefined
    : `${relative(ROOT, file)} has no heading #${fragment}`;
}

describe("the README", () => {
  it(`stays within ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; move detail into docs/`);
  });
});

describe("relative links in README.md and docs/", () => {
  it("each lead to a file of this repository, and to a heading where they name one", () => {
    const broken: string[] = [];
    let checked = 0;

    for (const page of pages()) {
      for (const target of linkTargets(readFileSync(join(ROOT, page), "utf8"))) {
        checked += 1;
        const problem = brokenLink(page, target);
        if (problem !== undefined) broken.push(`${page}: (${target}) ${problem}`);
      }
    }

    assert.deepEqual(broken, []);
    assert.ok(checked >= 30, `only ${checked} links found: is the link pattern still right?`);
  });

  it("are told apart from broken ones", () => {
    assert.equal(brokenLink("docs/cli.md", "../README.md"), undefined);
    assert.equal(brokenLink("docs/cli.md", "architecture.md#the-parts"), undefined);
    assert.match(brokenLink("docs/cli.md", "missing.md") ?? "", /docs\/missing\.md does not exist/);
    assert.match(brokenLink("docs/cli.md", "architecture.md#no-such-heading") ?? "", /no heading/);
    assert.match(brokenLink("README.md", "../outside/file.md") ?? "", /outside the repository/);
    assert.deepEqual(linkTargets("[a](x.md) ![b](y.svg) `[c](z.md)` [d](https://e.example)"), [
      "x.md",
      "y.svg",
      "https://e.example",
    ]);
    assert.ok(
      headingAnchors("## The `decisions` command\n## Against llama-server (P7), 2026-12-01\n").has(
        "the-decisions-command",
      ),
    );
  });
});
