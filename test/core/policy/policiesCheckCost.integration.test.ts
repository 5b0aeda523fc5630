/**
 * `decisions policies check` refuses the costly rules of issue 30 (defect 8) as an operator runs it:
 * `node bin/decisions.js policies check <folder>` on a policy file holding each attack rule exits
 * non-zero and prints the file, line, field, rule and the part of the expression with its bound.
 * Runs the compiled command, like a reader would (`npm ci` or `npm run build` first).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Eight nested binds over a literal list, each concatenating the one before eight ways: 33 million elements. */
function literalBinds(): string {
  let body = "size(x8) > 0";
  for (let level = 8; level >= 1; level -= 1) {
    const previous = level === 1 ? "[1, 2, 3, 4, 5, 6, 7, 8]" : `x${level - 1}`;
    body = `cel.bind(x${level}, ${Array(8).fill(previous).join(" + ")}, ${body})`;
  }
  return body;
}

function policyText(name: string, when: string): string {
  return `name: ${name}
version: "1"
description: d
questions:
  route:
    type: choice
    instructions: Which team?
    criteria: [billing, technical]
    threshold: 0.5
    fallback: technical
facts:
  s: string
  t:
    type: string-list
    default: []
rules:
  - name: costly_rule
    when: ${JSON.stringify(when)}
    review: why
`;
}

/** What `node bin/decisions.js policies check <path>` prints, and its exit code. */
function check(path: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ["bin/decisions.js", "policies", "check", path], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("decisions policies check on costly rules", () => {
  let folder: string;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "decisions-cost-"));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("refuses nested binds over a literal list, naming the rule, the part and the bound", async () => {
    const dir = join(folder, "binds");
    await mkdir(dir);
    await writeFile(join(dir, "binds.yaml"), policyText("binds", literalBinds()));

    const run = check(dir);

    assert.equal(run.status, 1, `${run.stdout}${run.stderr}`);
    assert.match(
      run.stdout,
      /binds\.yaml:18:\d+ rules\[0\]\.when: rule "costly_rule": `x4 \+ x4` can build a value of 73,728 elements and characters from its literals alone, whatever the input \(at most 65,536/,
    );
    assert.match(run.stdout, /^1 problem in 1 file$/m);
  });

  it("refuses join with a separator read from the input", async () => {
    const dir = join(folder, "join");
    await mkdir(dir);
    await writeFile(join(dir, "join.yaml"), policyText("join", "size(facts.t.join(facts.s)) > 0"));

    const run = check(dir);

    assert.equal(run.status, 1, `${run.stdout}${run.stderr}`);
    assert.match(
      run.stdout,
      /join\.yaml:18:\d+ rules\[0\]\.when: rule "costly_rule": `facts\.t\.join\(facts\.s\)` can build a value that grows with the square of its input/,
    );
  });

  it("passes the shipped policies folder", () => {
    const run = check("policies");

    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^\d+ policies valid$/m);
  });
});
