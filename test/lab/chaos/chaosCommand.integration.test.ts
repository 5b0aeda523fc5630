/**
 * `decisions chaos` at CI size: 150 messages on the real local pipeline (DynamoDB Local, fauxqs,
 * the adapter on the generated tiny-qwen3, the gateway, the decide function in its own process)
 * with shortened fault windows. The command's own result decides: every item ended exactly once.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { chaosCommand } from "../../../cli/commands/chaosCommand.js";
import type { ChaosResult } from "../../../lab/chaos/index.js";

describe("decisions chaos (integration, 150 messages)", () => {
  let folder: string | undefined;

  after(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  // The run's own waits follow progress (the drain stops once nothing has ended for a bounded
  // time); this bound only ends a hung run. On a machine whose other work keeps the load average
  // near 20 on 2 cores, starting the stack alone took 185 s and the property checks 110 s.
  it("ends every work item exactly once while every planned fault fires", {
    timeout: 2_400_000,
  }, async () => {
    folder = await mkdtemp(join(tmpdir(), "chaos-test-"));
    const json = join(folder, "result.json");

    const exitCode = await chaosCommand.run([
      "--messages",
      "150",
      "--seed",
      "7",
      "--window-scale",
      "0.3",
      "--property-cases",
      "300",
      "--json",
      json,
    ]);

    const result = JSON.parse(await readFile(json, "utf8")) as ChaosResult;
    const { counts } = result.check;
    assert.deepEqual(result.check.violations, []);
    assert.equal(exitCode, 0);
    assert.equal(counts.lost, 0);
    assert.equal(counts.notDrained, 0);
    assert.equal(result.queueRemaining, 0);
    assert.equal(counts.duplicates, 0);
    assert.equal(counts.conflicting, 0);
    assert.equal(counts.poisonRejected, counts.poison);
    assert.equal(counts.items, counts.decided + counts.poisonRejected + counts.deadLettered);
    assert.deepEqual(result.fired.map((fault) => fault.kind).sort(), [
      "adapter-errors",
      "adapter-kill",
      "dynamodb-stop",
      "poller-kill",
      "slow-answers",
    ]);
    assert.equal(result.properties?.recordParsing.cases, 300);
    assert.equal(result.properties?.policyLoading.cases, 300);
    const kill = result.fired.find((fault) => fault.kind === "poller-kill");
    assert.ok(Number(kill?.details.records_in_flight_at_kill) > 0, "the function host was killed mid-batch");
    const restart = result.fired.find((fault) => fault.kind === "dynamodb-stop");
    assert.ok(
      Number(restart?.details.outcomes_after_restart) >= Number(restart?.details.outcomes_before_stop),
    );
  });
});
