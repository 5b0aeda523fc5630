import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { AbortedError } from "../../../../adapter/engine/errors.js";
import { SerialQueue } from "../../../../adapter/engine/sequence/SerialQueue.js";

describe("SerialQueue", () => {
  it("runs tasks one at a time in arrival order", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, ms: number) => async () => {
      running += 1;
      assert.equal(running, 1);
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([
      queue.run(task("a", 20)),
      queue.run(task("b", 1)),
      queue.run(task("c", 5)),
    ]);
    assert.deepEqual(
      results.map((r) => r.value),
      ["a", "b", "c"],
    );
    assert.deepEqual(log, ["start a", "end a", "start b", "end b", "start c", "end c"]);
    assert.ok((results[2]?.waitedMs ?? 0) >= 15);
  });

  it("lets a waiting task leave on abort without blocking those behind it", async () => {
    const queue = new SerialQueue();
    const controller = new AbortController();
    const first = queue.run(() => sleep(30).then(() => "first"));
    const aborted = queue.run(async () => "never", controller.signal);
    const third = queue.run(async () => "third");
    await sleep(5);
    assert.equal(queue.waiting, 2);
    controller.abort();
    await assert.rejects(aborted, AbortedError);
    assert.equal((await first).value, "first");
    assert.equal((await third).value, "third");
  });

  it("keeps going after a task fails", async () => {
    const queue = new SerialQueue();
    const failing = queue.run(async () => {
      throw new Error("boom");
    });
    const next = queue.run(async () => 7);
    await assert.rejects(failing, /boom/);
    assert.equal((await next).value, 7);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const queue = new SerialQueue();
    await assert.rejects(
      queue.run(async () => 1, AbortSignal.abort()),
      AbortedError,
    );
  });
});
