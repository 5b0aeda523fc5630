/**
 * The owner's commands answer each mistake with a message that names what to do (and exit code 2),
 * and `--help` after any sub-command prints the usage. Through `runCli` with the real registry, as
 * a person types them; nothing here reaches a table (each mistake is told before one is opened).
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createCostCommand } from "../../cli/commands/costCommand.js";
import { createDriftCommand } from "../../cli/commands/driftCommand.js";
import { createJobsCommand } from "../../cli/commands/jobsCommand.js";
import { createModelsCommand } from "../../cli/commands/modelsCommand.js";
import { createOutcomesCommand } from "../../cli/commands/outcomesCommand.js";
import { createShadowCommand } from "../../cli/commands/shadowCommand.js";
import { runCli } from "../../cli/main.js";
import type { CliCommand, CliOutput } from "../../cli/types.js";

/** Runs the CLI as a person types it, capturing what main writes (usage errors, failures). */
async function cli(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await runCli(argv, {
    output: {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
    },
  });
  return { code, stderr };
}

/** Runs one command built on its own streams (help goes to the command's stdout). */
async function own(
  create: (output: Partial<CliOutput>) => CliCommand,
  args: string[],
): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const code = await create({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
  }).run(args);
  return { code, stdout };
}

describe("the owner's commands tell each mistake and what to do", () => {
  let folder: string;
  const saved: Record<string, string | undefined> = {};
  const REGION_VARIABLES = ["AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_CONFIG_FILE"];

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "owner-mistakes-"));
    for (const name of REGION_VARIABLES) saved[name] = process.env[name];
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    delete process.env.AWS_PROFILE;
    // No profile file either: the SDK finds no region anywhere.
    process.env.AWS_CONFIG_FILE = join(folder, "no-config");
  });

  after(async () => {
    for (const name of REGION_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("prints the usage for --help after any sub-command", async () => {
    const cases: Array<[(output: Partial<CliOutput>) => CliCommand, string[]]> = [
      [createModelsCommand, ["generate", "--help"]],
      [createModelsCommand, ["list", "-h"]],
      [createModelsCommand, ["manifest", "--help"]],
      [createModelsCommand, ["package", "--help"]],
      [createOutcomesCommand, ["list", "--help"]],
      [createOutcomesCommand, ["review", "--help"]],
      [createShadowCommand, ["report", "--help"]],
      [createJobsCommand, ["list", "--help"]],
      [createDriftCommand, ["--help"]],
      [createCostCommand, ["--help"]],
    ];
    for (const [create, args] of cases) {
      const { code, stdout } = await own(create, args);
      assert.equal(code, 0, args.join(" "));
      assert.match(stdout, /^usage/, args.join(" "));
    }
  });

  it("names the options that point at a stack when neither an endpoint nor a region is given", async () => {
    for (const argv of [
      ["outcomes", "list", "--policy", "ticket-routing"],
      ["shadow", "report", "--policy", "ticket-routing"],
      ["drift", "--policy", "ticket-routing"],
      ["cost", "--policy", "ticket-routing", "--instance-price", "1"],
      ["jobs", "list"],
    ]) {
      const { code, stderr } = await cli(argv);
      assert.equal(code, 2, argv.join(" "));
      assert.match(stderr, /no AWS region and no local stack to read: give --up-info <file>/, argv.join(" "));
      assert.match(stderr, /--endpoint-url http:\/\/127\.0\.0\.1:<port>/);
      assert.doesNotMatch(stderr, /Region is missing/);
    }
  });

  it("takes --up-info in every table command, and says what is wrong with a file that is not up's line", async () => {
    const notUp = join(folder, "not-up.json");
    await writeFile(notUp, "hello\n");
    for (const argv of [
      ["outcomes", "list", "--policy", "ticket-routing"],
      ["shadow", "report", "--policy", "ticket-routing"],
      ["drift", "--policy", "ticket-routing"],
      ["cost", "--policy", "ticket-routing", "--instance-price", "1"],
      ["jobs", "list"],
    ]) {
      const { code, stderr } = await cli([...argv, "--up-info", notUp]);
      assert.equal(code, 1, argv.join(" "));
      assert.match(
        stderr,
        /--up-info .*not-up\.json does not start with a JSON line: save the JSON line a running decisions up printed \(decisions up > up\.json\)/,
      );
      assert.doesNotMatch(stderr, /Unknown option/);
    }
  });

  it("names an unknown policy as such, with the known ones, instead of answering 'no records'", async () => {
    for (const argv of [
      ["shadow", "report", "--policy", "tickets"],
      ["outcomes", "list", "--policy", "tickets"],
      ["drift", "--policy", "tickets"],
      ["cost", "--policy", "tickets", "--instance-price", "1"],
    ]) {
      const { code, stderr } = await cli(argv);
      assert.equal(code, 2, argv.join(" "));
      assert.match(
        stderr,
        /unknown policy "tickets": .* holds batch-classification, incident-priority, ticket-routing; give one of them to --policy, or --policies <dir>/,
        argv.join(" "),
      );
    }
  });

  it("refuses times outside years 1970–9999 and numbers not written in decimal, naming the range", async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ["drift", "--policy", "ticket-routing", "--since=-271821-04-20T00:00:00Z"],
        /--since "-271821-04-20T00:00:00Z" is outside the times taken, from 1970-01-01 to 9999-12-31 \(UTC\)/,
      ],
      [
        [
          "cost",
          "--policy",
          "ticket-routing",
          "--instance-price",
          "1",
          "--since",
          "+275760-09-13T00:00:00.000Z",
        ],
        /--since "\+275760-09-13T00:00:00\.000Z" is outside the times taken/,
      ],
      [
        ["shadow", "report", "--policy", "ticket-routing", "--since", "10000-01-01"],
        /outside the times taken/,
      ],
      [
        [
          "outcomes",
          "redecide",
          "--policy",
          "ticket-routing",
          "--status",
          "fallback",
          "--since",
          "1969-12-31",
          "--dry-run",
        ],
        /outside the times taken/,
      ],
      [
        ["drift", "--policy", "ticket-routing", "--until", "2026-12-03T10:00:00"],
        /has no zone: add Z for UTC/,
      ],
      [
        ["cost", "--policy", "ticket-routing", "--instance-price", "1e308"],
        /--instance-price must be a decimal number from 0 to 10000 \(US dollars per instance hour\), got "1e308"/,
      ],
      [
        ["cost", "--policy", "ticket-routing", "--instance-price", "0x10"],
        /--instance-price must be a decimal number from 0 to 10000/,
      ],
      [["drift", "--policy", "ticket-routing", "--threshold", "0x1"], /--threshold must be a decimal number/],
    ];
    for (const [argv, message] of cases) {
      const { code, stderr } = await cli(argv);
      assert.equal(code, 2, `${argv.join(" ")}: ${stderr}`);
      assert.match(stderr, message, argv.join(" "));
    }
  });
});
