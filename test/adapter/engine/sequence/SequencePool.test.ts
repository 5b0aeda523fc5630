import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AbortedError } from "../../../../adapter/engine/errors.js";
import { SequencePool } from "../../../../adapter/engine/sequence/SequencePool.js";

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("SequencePool", () => {
  it("runs as many tasks at once as it has lanes, the rest in arrival order", async () => {
    const pool = new SequencePool(["a", "b"]);
    const started: string[] = [];
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((task, index) =>
      pool.run(async (lane) => {
        started.push(`${index}:${lane}`);
        await task.opened;
        return index;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ["0:a", "1:b"]);
    assert.equal(pool.waiting, 1);
    gates[1]?.open();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ["0:a", "1:b", "2:b"], "the freed lane goes to the next task");
    gates[0]?.open();
    gates[2]?.open();
    assert.deepEqual(
      (await Promise.all(runs)).map((run) => run.value),
      [0, 1, 2],
    );
  });

  it("lets a task choose among the free lanes", async () => {
    const pool = new SequencePool(["a", "b", "c"]);
    const { value } = await pool.run(async (lane) => lane, { pick: (free) => free[2] as string });
    assert.equal(value, "c");
  });

  it("gives every lane at once only when all are free, holding later tasks behind it", async () => {
    const pool = new SequencePool(["a", "b"]);
    const order: string[] = [];
    const busy = gate();
    const running = pool.run(async () => {
      order.push("one");
      await busy.opened;
    });
    const all = pool.runOnAll(async (lanes) => {
      order.push(`all:${lanes.length}`);
    });
    const later = pool.run(async () => {
      order.push("later");
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, ["one"], "a free lane is not given past the task waiting for all");
    busy.open();
    await Promise.all([running, all, later]);
    assert.deepEqual(order, ["one", "all:2", "later"]);
  });

  it("lets an aborted task leave the queue at once, and the next one have its turn", async () => {
    const pool = new SequencePool(["a"]);
    const busy = gate();
    const running = pool.run(() => busy.opened);
    const controller = new AbortController();
    const aborted = pool.run(async () => "never", { signal: controller.signal });
    const next = pool.run(async () => "next");
    controller.abort(new Error("deadline"));
    await assert.rejects(aborted, AbortedError);
    busy.open();
    await running;
    assert.equal((await next).value, "next");
    await assert.rejects(
      pool.run(async () => 1, { signal: AbortSignal.abort() }),
      AbortedError,
    );
  });
});
