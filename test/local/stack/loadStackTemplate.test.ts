import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CfnTemplate } from "../../../local/stack/cfnTemplate.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";

const root = mkdtempSync(join(tmpdir(), "stack-template-test-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** A project with a cdk.json and one infra file, and a synthesizer that counts its calls. */
function project(name: string) {
  const projectRoot = join(root, name);
  mkdirSync(join(projectRoot, "infra"), { recursive: true });
  writeFileSync(join(projectRoot, "cdk.json"), JSON.stringify({ context: { batchSize: 10 } }));
  writeFileSync(join(projectRoot, "infra", "stack.ts"), "export const version = 1;\n");
  const calls: string[] = [];
  const synthesize = async (at: string): Promise<CfnTemplate> => {
    calls.push(at);
    return {
      Resources: { Queue: { Type: "AWS::SQS::Queue", Properties: { VisibilityTimeout: calls.length } } },
    };
  };
  const cacheDir = join(projectRoot, ".cache", "stack-template");
  return {
    projectRoot,
    calls,
    load: () => loadStackTemplate({ projectRoot, cacheDir, synthesize }),
    cacheDir,
  };
}

describe("loadStackTemplate", () => {
  it("synthesizes once, then reads the cached template while nothing it is made from changes", async () => {
    const { load, calls } = project("unchanged");

    const first = await load();
    const second = await load();

    assert.equal(calls.length, 1);
    assert.deepEqual(second, first);
  });

  it("synthesizes again when a file of infra/ or cdk.json changes", async () => {
    const { projectRoot, load, calls } = project("changed");
    await load();

    writeFileSync(join(projectRoot, "infra", "stack.ts"), "export const version = 2;\n");
    const afterInfra = await load();
    writeFileSync(join(projectRoot, "cdk.json"), JSON.stringify({ context: { batchSize: 5 } }));
    await load();

    assert.equal(calls.length, 3);
    assert.equal(afterInfra.Resources.Queue?.Properties?.VisibilityTimeout, 2);
  });

  it("passes by a cached file it cannot read, synthesizing again instead of failing", async () => {
    const { load, calls, cacheDir } = project("unreadable");
    await load();
    for (const file of readdirSync(cacheDir)) writeFileSync(join(cacheDir, file), "{ not json");

    const template = await load();

    assert.equal(calls.length, 2);
    assert.equal(template.Resources.Queue?.Type, "AWS::SQS::Queue");
  });
});
