import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import type { CommandEntry } from "../../cli/commandRegistry.js";
import { runCli } from "../../cli/main.js";
import { recordedRuns } from "./fixtures/recordingCommand.fixture.js";

const THROWS_ON_IMPORT = new URL("./fixtures/throwsOnImport.fixture.ts", import.meta.url).href;
const RECORDING = new URL("./fixtures/recordingCommand.fixture.ts", import.meta.url).href;

const REGISTRY: readonly CommandEntry[] = [
  {
    name: "alpha",
    summary: "the first command",
    module: THROWS_ON_IMPORT,
    exportName: "x",
    parts: ["adapter"],
  },
  {
    name: "record",
    summary: "records its arguments",
    module: RECORDING,
    exportName: "recordingCommand",
    parts: [],
  },
  {
    name: "absent",
    summary: "needs a folder this checkout lacks",
    module: RECORDING,
    exportName: "recordingCommand",
    parts: ["no-such-part"],
  },
  { name: "broken", summary: "names a missing export", module: RECORDING, exportName: "nothing", parts: [] },
];

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    registry: REGISTRY,
    output: {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    },
  });
  return { code, stdout, stderr };
}

describe("runCli", () => {
  beforeEach(() => {
    recordedRuns.length = 0;
  });

  it("prints help from the registry alone: a command module that throws on import is not loaded", async () => {
    for (const argv of [["help"], ["--help"], ["-h"]]) {
      const { code, stdout } = await cli(argv);

      assert.equal(code, 0);
      assert.match(stdout, /^ {2}alpha {3}the first command$/m);
      assert.match(stdout, /^ {2}record {2}records its arguments$/m);
    }
  });

  it("lists a command whose parts are not installed apart, naming what it needs", async () => {
    const { stdout } = await cli(["help"]);

    assert.doesNotMatch(stdout, /^ {2}absent/m);
    assert.match(stdout, /not installed here: absent \(needs no-such-part\/\)/);
  });

  it("answers no command with the usage on stderr and exit code 2", async () => {
    const { code, stdout, stderr } = await cli([]);

    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /^usage: decisions <command>/);
  });

  it("answers an unknown command and an unavailable one with exit code 2, loading nothing", async () => {
    const unknown = await cli(["frobnicate"]);
    const absent = await cli(["absent", "x"]);

    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    assert.equal(absent.code, 2);
    assert.match(absent.stderr, /"absent" is not available in this installation: it needs no-such-part\//);
    assert.deepEqual(recordedRuns, []);
  });

  it("runs a command with the arguments after its name; help <command> runs it with --help", async () => {
    const run = await cli(["record", "--kind=x", "y"]);
    const help = await cli(["help", "record"]);

    assert.equal(run.code, 0);
    assert.equal(help.code, 0);
    assert.deepEqual(recordedRuns, [["--kind=x", "y"], ["--help"]]);
  });

  it("answers a usage error with exit code 2, its message and the command's usage", async () => {
    const { code, stderr } = await cli(["record", "usage"]);

    assert.equal(code, 2);
    assert.equal(stderr, "decisions record: bad arguments\n\nusage: decisions record");
  });

  it("answers a failure with exit code 1 and its causes, and a module without its command likewise", async () => {
    const failed = await cli(["record", "fail"]);
    const broken = await cli(["broken"]);

    assert.equal(failed.code, 1);
    assert.equal(failed.stderr, "decisions record: it broke\n  caused by: the disk is full\n");
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /exports no command named nothing/);
  });
});
