import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createSimulateCommand } from "../../../cli/commands/simulateCommand.js";
import { UsageError } from "../../../cli/errors.js";

function command(): { run: (args: string[]) => Promise<number>; written: () => string } {
  let text = "";
  const simulate = createSimulateCommand({ stdout: { write: (chunk: string) => (text += chunk) } });
  return { run: (args) => simulate.run(args), written: () => text };
}

const quick = ["--lines", "2000", "--request-s", "3", "--instance-start-s", "120", "--ingest-rate", "0"];

describe("decisions simulate", () => {
  it("prints one JSON object with the job's hours, instance-hours, peak busy instances and refused share", async () => {
    // prepare
    const { run, written } = command();

    // act
    const code = await run([
      ...quick,
      "--min-instances",
      "1",
      "--max-instances",
      "5",
      "--capacity",
      "follow",
      "--instance-price",
      "2",
      "--json",
    ]);

    // assert
    assert.equal(code, 0);
    const lines = written().trim().split("\n");
    assert.equal(lines.length, 1);
    const report = JSON.parse(lines[0] as string) as Record<string, unknown>;
    for (const key of [
      "job_hours",
      "instance_hours",
      "busy_instance_hours",
      "bulk_instance_hours",
      "paid_over_busy",
      "met_goal",
      "first_line_s",
      "peak_in_service_instances",
      "peak_busy_instances",
      "refused_share",
      "cost",
      "peak_calls_in_flight",
      "interactive",
    ]) {
      assert.ok(key in report, `${key} is reported`);
    }
    assert.equal(report.cost, Math.round((report.instance_hours as number) * 2 * 100) / 100);
    assert.equal("timeline" in report, false);
  });

  it("prints a summary with sparklines and writes the SVG chart it is asked for", async () => {
    // prepare
    const { run, written } = command();
    const dir = mkdtempSync(join(tmpdir(), "simulate-"));
    const chart = join(dir, "chart.svg");

    try {
      // act
      const code = await run([...quick, "--max-instances", "4", "--chart", chart]);

      // assert
      assert.equal(code, 0);
      assert.match(written(), /job\s+\d+\.\d+ h/);
      assert.match(written(), /InService\s+[▁▂▃▄▅▆▇█]+/);
      assert.match(readFileSync(chart, "utf8"), /^<svg [^>]*>[\s\S]*<\/svg>\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows the CDK app's defaults in its help: 4 requests per instance, a 60-minute drain goal, shared, lanes on, follow", async () => {
    // prepare
    const { run, written } = command();

    // act
    const code = await run(["--help"]);

    // assert
    assert.equal(code, 0);
    assert.match(written(), /--requests-per-instance <n>\n[^\n]*\(default 4\)/);
    assert.match(written(), /--bulk-drain-goal-minutes <n>\n[^\n]*\(default 60\)/);
    assert.match(written(), /--layout shared\|lanes-from-zero\n[^\n]*\(default shared\)/);
    assert.match(written(), /--idle-hours <n>\n[^\n]*\(default 0\)/);
    assert.match(written(), /--lanes on\|off\n[^\n]*\(default on\)/);
    assert.match(written(), /--capacity fixed\|follow\n[^\n]*\(default follow\)/);
  });

  it("simulates an idle day from zero: no bulk instance-hours, nothing busy", async () => {
    // prepare
    const { run, written } = command();

    // act
    const code = await run(["--lines", "0", "--idle-hours", "24", "--layout", "lanes-from-zero", "--json"]);

    // assert
    assert.equal(code, 0);
    const report = JSON.parse(written()) as Record<string, unknown>;
    assert.equal(report.bulk_instance_hours, 0);
    assert.equal(report.busy_instance_hours, 0);
    assert.equal(report.paid_over_busy, null);
    assert.equal(report.layout, "lanes-from-zero");
  });

  for (const [args, message] of [
    [["--lines", "many"], /--lines must be a number, got "many"/],
    [["--lines", "-1"], /--lines must be an integer in 0…/],
    [["--layout", "split"], /--layout must be one of shared, lanes-from-zero/],
    [["--min-instances", "0"], /--min-instances must be at least 1 with --layout shared/],
    [
      ["--layout", "lanes-from-zero", "--lanes", "off"],
      /--layout lanes-from-zero needs --capacity follow and --lanes on/,
    ],
    [
      ["--min-instances", "4", "--max-instances", "2"],
      /--max-instances \(2\) must be at least --min-instances \(4\)/,
    ],
    [["--capacity", "elastic"], /--capacity must be one of fixed, follow/],
    [["--lanes", "maybe"], /--lanes must be on or off/],
    [["--instances", "3"], /Unknown option '--instances'/],
  ] as const) {
    it(`refuses ${args.join(" ")} with a usage error naming the flag`, async () => {
      // prepare
      const { run } = command();

      // act / assert
      await assert.rejects(
        run([...args]),
        (error: unknown) => error instanceof UsageError && message.test(error.message),
      );
    });
  }
});
