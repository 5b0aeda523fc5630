/**
 * A short load run (issue 11, "Load") on the real adapter as its own process on the generated
 * tiny-qwen3, then on the local SageMaker gateway in front of it: 50 clients for a few seconds.
 * Only invariants are asserted — admission bounded (503 with Retry-After), every 200 answering its
 * own request, no other status, descriptors and state files bounded. Latency and memory growth
 * are reported by `decisions load`, not asserted (no timed assertions).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type LoadReport,
  type LoadTarget,
  runLoad,
  startLoadTarget,
} from "../../../lab/reliability/index.js";

const CONNECTIONS = 50;
const SECONDS = 5;
const CACHE_MAX_BYTES = 8 * 1024 * 1024;

describe("a bounded load run on loopback (integration)", { timeout: 240_000 }, () => {
  let target: LoadTarget;

  before(async () => {
    target = await startLoadTarget({
      gateway: true,
      // The adapter's admission as deployed (1 in flight, 8 queued) and a small state-file bound.
      adapterArgs: ["--cache-max-bytes", String(CACHE_MAX_BYTES)],
      env: process.env,
    });
  });

  after(async () => {
    await target?.stop();
  });

  it("on the adapter: only 200s and 503s with Retry-After, each 200 its own request's answers, no leak", async () => {
    const report = await runLoad({
      url: target.adapter.url,
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
      warmupSeconds: 1,
      pid: target.adapter.pid,
      stateDir: target.stateDir,
    });

    assert.ok(report.ok > 0, summary(report));
    assert.equal(report.crossTalk, 0);
    assert.deepEqual(
      Object.keys(report.statuses).sort(),
      ["200", "503"],
      JSON.stringify(report.unexpectedExamples),
    );
    assert.equal(report.refusedWithoutRetryAfter, 0);
    assert.equal(report.errors, 0, summary(report));
    const adapter = report.process;
    assert.ok(adapter !== undefined);
    // Descriptors are bounded by the connections, not by the thousands of requests served.
    assert.ok(
      adapter.fdsEnd <= adapter.fdsStart + CONNECTIONS + 8,
      `fds ${adapter.fdsStart} → ${adapter.fdsEnd}`,
    );
    assert.ok(report.stateFiles !== undefined && report.stateFiles.endBytes <= CACHE_MAX_BYTES);
    assert.equal((await fetch(`${target.adapter.url}/ping`)).status, 200);
  });

  it("on the gateway: only 200s and ModelErrors carrying the adapter's 503, each 200 its own request's answers", async () => {
    const run = (durationSeconds: number) =>
      runLoad({
        url: target.gateway?.url ?? "",
        path: target.gatewayPath,
        connections: CONNECTIONS,
        durationSeconds,
        warmupSeconds: 1,
        pid: target.adapter.pid,
        alsoSample: { gateway: target.gateway?.pid ?? 0 },
        stateDir: target.stateDir,
      });
    // On a machine whose cores are taken by other work one answer of the tiny model can outlast the
    // window (seen: 1,260 refusals and no 200 in 5 s beside another test file), so a window without
    // any 200 is followed by one longer window: the assertions below need answers to check.
    let report = await run(SECONDS);
    if (report.ok === 0) report = await run(SECONDS * 6);

    assert.ok(report.ok > 0, summary(report));
    assert.equal(report.crossTalk, 0);
    assert.equal(report.unexpected, 0, JSON.stringify(report.unexpectedExamples));
    // A gateway 503 (ServiceUnavailable: its call to the adapter failed) and connection errors were
    // seen under a heavily shared CPU in a 60 s run; they are reported by `decisions load`, with the
    // cause the gateway logged (`upstreamFailures`), not asserted.
    assert.ok(report.modelErrors503 > 0, summary(report));
    const gateway = report.alsoSampled.gateway;
    assert.ok(gateway !== undefined && gateway.pid !== process.pid);
    assert.ok(
      gateway.fdsEnd <= gateway.fdsStart + 2 * CONNECTIONS + 8,
      `gateway fds ${gateway.fdsStart} → ${gateway.fdsEnd}`,
    );
    const adapter = report.process;
    assert.ok(adapter !== undefined);
    assert.ok(
      adapter.fdsEnd <= adapter.fdsStart + CONNECTIONS + 8,
      `fds ${adapter.fdsStart} → ${adapter.fdsEnd}`,
    );
    assert.ok(report.stateFiles !== undefined && report.stateFiles.endBytes <= CACHE_MAX_BYTES);
    assert.equal((await fetch(`${target.adapter.url}/ping`)).status, 200);
  });
});

function summary(report: LoadReport): string {
  const { process: sampled, alsoSampled, ...counts } = report;
  return JSON.stringify({ ...counts, fds: [sampled?.fdsStart, sampled?.fdsEnd] });
}
