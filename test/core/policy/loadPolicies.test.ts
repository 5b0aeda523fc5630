/**
 * loadPolicies: a folder of policy files, every file's problems in one error, names matching
 * file names, one owner per event source and detail-type.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loadPolicies, loadPolicyFile, PolicyLoadError } from "../../../core/policy/index.js";
import { policyText } from "./fabricate.js";

const EVENTS = `events:
  - source: acme.monitoring
    detail-type: Incident Opened
    id: event.id
    state: event.detail
`;

function named(name: string, extra = ""): string {
  return policyText(extra).replace("name: test-policy", `name: ${name}`);
}

async function problemsOf(dir: string) {
  try {
    await loadPolicies(dir);
  } catch (error) {
    assert.ok(error instanceof PolicyLoadError, String(error));
    return error.problems.map((p) => ({
      file: p.file.slice(dir.length + 1),
      path: p.path.join("."),
      message: p.message,
    }));
  }
  assert.fail("loadPolicies accepted the folder");
}

describe("loadPolicies", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "policies-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("loads every .yaml and .yml file and ignores other files", async () => {
    await writeFile(join(dir, "alpha.yaml"), named("alpha"));
    await writeFile(join(dir, "beta.yml"), named("beta"));
    await writeFile(join(dir, "policy.schema.json"), "{}");
    await writeFile(join(dir, "README.md"), "# not a policy");

    const set = await loadPolicies(dir);

    assert.deepEqual(set.names(), ["alpha", "beta"]);
    assert.equal(set.get("alpha")?.file, join(dir, "alpha.yaml"));
    assert.equal(set.get("gamma"), undefined);
  });

  it("reports the problems of every file in one error", async () => {
    await writeFile(join(dir, "alpha.yaml"), named("alpha", "    colour: red\n"));
    await writeFile(join(dir, "beta.yaml"), named("beta").replace("threshold: 0.5", "threshold: high"));
    await writeFile(join(dir, "gamma.yaml"), named("gamma"));

    const problems = await problemsOf(dir);

    assert.deepEqual(
      problems.map((p) => [p.file, p.path]),
      [
        ["alpha.yaml", "questions.route.colour"],
        ["beta.yaml", "questions.route.threshold"],
      ],
    );
  });

  it("requires the policy's name to be its file name, and names to be unique", async () => {
    await writeFile(join(dir, "alpha.yaml"), named("beta"));
    await writeFile(join(dir, "beta.yml"), named("beta"));

    const problems = await problemsOf(dir);

    assert.deepEqual(problems, [
      {
        file: "alpha.yaml",
        path: "name",
        message: 'name "beta" does not match the file name (expected "alpha")',
      },
      {
        file: "beta.yml",
        path: "name",
        message: `policy "beta" is also defined in ${join(dir, "alpha.yaml")}`,
      },
    ]);
  });

  it("refuses two policies that map the same event source and detail-type", async () => {
    await writeFile(join(dir, "alpha.yaml"), named("alpha", EVENTS));
    await writeFile(join(dir, "beta.yaml"), named("beta", EVENTS));

    const problems = await problemsOf(dir);

    assert.deepEqual(problems, [
      {
        file: "beta.yaml",
        path: "events.0",
        message: 'policy "alpha" already maps source "acme.monitoring" detail-type "Incident Opened"',
      },
    ]);
  });

  it("refuses a folder without policies and a folder that does not exist", async () => {
    const empty = await problemsOf(dir);
    assert.match(empty[0]?.message ?? "", /no policy files/);

    await assert.rejects(loadPolicies(join(dir, "missing")), (error: unknown) => {
      return error instanceof PolicyLoadError && /ENOENT/.test(error.problems[0]?.message ?? "");
    });
  });

  it("loadPolicyFile reports an unreadable file as a PolicyLoadError with the cause kept", async () => {
    await assert.rejects(loadPolicyFile(join(dir, "nope.yaml")), (error: unknown) => {
      return (
        error instanceof PolicyLoadError && error.cause instanceof Error && error.problems[0]?.line === 1
      );
    });
  });
});
