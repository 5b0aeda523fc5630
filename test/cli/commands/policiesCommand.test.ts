import assert from "node:assert/strict";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPoliciesCommand, type PoliciesReport } from "../../../cli/commands/policiesCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { loadPolicies, PolicyLoadError } from "../../../core/policy/index.js";
import { defaultPolicyDir } from "../../../operations/common/index.js";

function capture(): { command: ReturnType<typeof createPoliciesCommand>; stdout: () => string } {
  let out = "";
  const command = createPoliciesCommand({ stdout: { write: (text: string) => (out += text) } });
  return { command, stdout: () => out };
}

/** A valid policy named `name` whose rules are `rules` (each a `when`), as the docs write them. */
function policyText(name: string, rules: readonly string[]): string {
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
  tier: string
  tags:
    type: string-list
    default: []
rules:
${rules.map((when, index) => `  - name: r${index}\n    when: ${JSON.stringify(when)}\n    review: why\n`).join("")}`;
}

/** The issue's rule: five nested binds, each concatenating the list before it eight ways. */
function nestedBindRule(): string {
  let nested = "size(x5) > 0";
  for (let level = 5; level >= 1; level -= 1) {
    const previous = level === 1 ? "facts.tags" : `x${level - 1}`;
    nested = `cel.bind(x${level}, ${Array(8).fill(previous).join(" + ")}, ${nested})`;
  }
  return nested;
}

describe("decisions policies", () => {
  let folder: string;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "decisions-policies-"));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("checks this repository's policies folder: every policy valid, exit 0", async () => {
    const { command, stdout } = capture();
    const files = (await readdir(defaultPolicyDir())).filter((name) => name.endsWith(".yaml"));

    const code = await command.run(["check", defaultPolicyDir()]);

    assert.equal(code, 0, stdout());
    assert.equal(stdout().match(/^ok /gm)?.length, files.length, stdout());
    assert.match(stdout(), new RegExp(`^${files.length} policies valid$`, "m"));
  });

  it("prints every one of nine problems with file, line and field, no '… and N more', exit 1", async () => {
    const dir = join(folder, "nine");
    await mkdir(dir);
    const rules = Array.from({ length: 9 }, (_, index) => `facts.undeclared${index} == 'x'`);
    await writeFile(join(dir, "nine.yaml"), policyText("nine", rules));
    const { command, stdout } = capture();

    const code = await command.run(["check", dir]);

    assert.equal(code, 1);
    const problems = stdout()
      .split("\n")
      .filter((line) => line.includes("nine.yaml:"));
    assert.equal(problems.length, 9, stdout());
    problems.forEach((line, index) => {
      // rule index's `when` is on line 18 + 3 × index of the generated file.
      assert.match(
        line,
        new RegExp(`nine\\.yaml:${18 + 3 * index}:\\d+ rules\\[${index}\\]\\.when: .*undeclared${index}`),
      );
    });
    assert.doesNotMatch(stdout(), /more/);
    assert.match(stdout(), /^9 problems in 1 file$/m);
  });

  it("refuses the nested cel.bind policy, as the loader the functions run does", async () => {
    const dir = join(folder, "binds");
    await mkdir(dir);
    const file = join(dir, "binds.yaml");
    await writeFile(file, policyText("binds", [nestedBindRule()]));
    const { command, stdout } = capture();

    const fileCode = await command.run(["check", file, "--json"]);
    const loaded = await loadPolicies(dir).then(
      () => undefined,
      (error: unknown) => error,
    );

    assert.equal(fileCode, 1);
    const report = JSON.parse(stdout()) as PoliciesReport;
    assert.equal(report.valid, false);
    assert.deepEqual(
      report.problems.map((problem) => [problem.file, problem.line, problem.field]),
      [[file, 18, "rules[0].when"]],
    );
    assert.match(report.problems[0]?.message ?? "", /times as large as its input/);
    assert.ok(loaded instanceof PolicyLoadError, String(loaded));
    assert.deepEqual(
      loaded.problems.map((problem) => problem.message),
      report.problems.map((problem) => problem.message),
    );
  });

  it("checks one file with the folder's cross-file rules: its name must match the file name", async () => {
    const file = join(folder, "other-name.yaml");
    await writeFile(file, policyText("ticket-routing", ["has(facts.tier) && facts.tier == 'x'"]));
    const { command, stdout } = capture();

    const code = await command.run(["check", file]);

    assert.equal(code, 1);
    assert.match(stdout(), /other-name\.yaml:1:1 name: name "ticket-routing" does not match the file name/);
  });

  it("says a missing path cannot be read, exit 1", async () => {
    const { command, stdout } = capture();

    const code = await command.run(["check", join(folder, "absent.yaml"), "--json"]);

    assert.equal(code, 1);
    const report = JSON.parse(stdout()) as PoliciesReport;
    assert.match(report.problems[0]?.message ?? "", /cannot read: ENOENT/);
  });

  it("lists a folder's policies with their questions, rules and events", async () => {
    const dir = join(folder, "listed");
    await mkdir(dir);
    await copyFile(join(defaultPolicyDir(), "ticket-routing.yaml"), join(dir, "ticket-routing.yaml"));
    const { command, stdout } = capture();

    const code = await command.run(["list", dir, "--json"]);

    assert.equal(code, 0);
    const report = JSON.parse(stdout()) as PoliciesReport;
    assert.deepEqual(
      report.policies.map((policy) => [policy.name, policy.questions.map((question) => question.id)]),
      [["ticket-routing", ["queue", "priority", "needs_human"]]],
    );
    assert.ok((report.policies[0]?.rules.length ?? 0) > 0);
  });

  it("refuses an unknown action or check without a path as a usage error", async () => {
    const { command } = capture();

    await assert.rejects(command.run(["verify"]), UsageError);
    await assert.rejects(command.run(["check"]), UsageError);
  });
});
