/**
 * `decisions chaos` at CI size: 120 messages in both lanes on the real local pipeline (DynamoDB
 * Local, fauxqs with each lane's queue and DLQ, the adapter on the generated tiny-qwen3, the
 * gateway, each lane's decide function under its poller in one process of its own) with shortened
 * fault windows. The command's own result decides: every item ended exactly once, per lane and
 * across lanes (an item sent in both lanes too), nothing dead-lettered for being busy or in the
 * other lane's DLQ, and both lanes' calls met the faults. One stack start, one run.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { chaosCommand } from "../../../cli/commands/chaosCommand.js";
import { LANES } from "../../../contract/lanes/lanes.js";
import type { ChaosResult } from "../../../lab/chaos/index.js";

describe("decisions chaos (integration, 120 messages in both lanes)", () => {
  let folder: string | undefined;

  after(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  // The run's own waits follow progress (the drain stops once nothing has ended for a bounded
  // time); this bound only ends a hung run. On a machine whose other work keeps the load average
  // near 20 on 2 cores, starting the stack alone took 185 s and the property checks 110 s.
  it("ends every work item exactly once, per lane and across lanes, while every planned fault fires", {
    timeout: 2_400_000,
  }, async () => {
    folder = await mkdtemp(join(tmpdir(), "chaos-test-"));
    const json = join(folder, "result.json");

    const exitCode = await chaosCommand.run([
      "--messages",
      "120",
      "--seed",
      "7",
      "--window-scale",
      "0.3",
      "--property-cases",
      "100",
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
    assert.equal(result.properties?.recordParsing.cases, 100);
    assert.equal(result.properties?.policyLoading.cases, 100);
    const kill = result.fired.find((fault) => fault.kind === "poller-kill");
    assert.ok(Number(kill?.details.records_in_flight_at_kill) > 0, "the function host was killed mid-batch");
    const restart = result.fired.find((fault) => fault.kind === "dynamodb-stop");
    assert.ok(
      Number(restart?.details.outcomes_after_restart) >= Number(restart?.details.outcomes_before_stop),
    );

    // Per lane: each carried work and poison, lost nothing, wrote no second outcome, dead-lettered
    // nothing for being busy nor into the other lane's DLQ; each lane's calls met the faults.
    assert.equal(counts.deadLetteredBusy, 0);
    assert.equal(counts.deadLetteredElsewhere, 0);
    for (const lane of LANES) {
      const each = counts.lanes[lane];
      assert.ok(each.messages > 0 && each.decided > 0, `${lane}: ${JSON.stringify(each)}`);
      assert.ok(each.poison > 0, `${lane} carried poison`);
      assert.equal(each.poisonRejected, each.poison, lane);
      assert.deepEqual(
        [each.lost, each.notDrained, each.duplicates, each.deadLetteredBusy, each.deadLetteredElsewhere],
        [0, 0, 0, 0, 0],
        lane,
      );
      const calls = result.endpointCallsByLane[lane];
      assert.ok(calls.requests > 0, `${lane} called the endpoint`);
      assert.ok(
        calls.injectedErrors + calls.slowed + calls.upstreamFailures > 0,
        `${lane}'s calls met the faults: ${JSON.stringify(calls)}`,
      );
    }
    // Across lanes: the lanes' counts add up, and an item sent in both lanes ended once.
    assert.equal(counts.lanes.interactive.messages + counts.lanes.bulk.messages, counts.messages);
    assert.equal(counts.lanes.interactive.decided + counts.lanes.bulk.decided, counts.decided);
    assert.ok(counts.crossLane.items >= 1);
    assert.equal(counts.crossLane.endedOnce, counts.crossLane.items);
  });
});
