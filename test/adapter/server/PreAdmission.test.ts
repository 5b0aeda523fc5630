import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PreAdmissionFullError } from "../../../adapter/server/errors.js";
import { PreAdmission } from "../../../adapter/server/PreAdmission.js";

/** A preparation the test ends itself. */
function held(): { work: () => Promise<string>; finish: (value: string) => void; started: () => boolean } {
  let finish: (value: string) => void = () => undefined;
  let started = false;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return {
    work: () => {
      started = true;
      return done;
    },
    finish: (value) => finish(value),
    started: () => started,
  };
}

describe("PreAdmission", () => {
  it("refuses a lane's arrival once its places are taken, and gives a place back on leave", () => {
    const preAdmission = new PreAdmission({
      limitOf: (lane) => (lane === "bulk" ? 2 : Number.POSITIVE_INFINITY),
      maxWaiting: () => Number.POSITIVE_INFINITY,
    });
    const first = preAdmission.tryEnter("bulk");
    const second = preAdmission.tryEnter("bulk");
    assert.ok(first && second);
    assert.equal(preAdmission.tryEnter("bulk"), undefined);
    assert.ok(preAdmission.tryEnter("interactive"), "the other lane is not bounded by bulk's places");
    first.leave();
    first.leave();
    assert.ok(preAdmission.tryEnter("bulk"));
    assert.deepEqual(preAdmission.lanes().bulk, {
      held: 2,
      waiting: 0,
      preparing: 0,
      prepared: 0,
      dropped: 0,
      refused: 1,
    });
  });

  it("runs one preparation at a time, every waiting interactive one before any waiting bulk one", async () => {
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: () => Number.POSITIVE_INFINITY,
    });
    const order: string[] = [];
    const signal = new AbortController().signal;
    const running = held();
    const first = preAdmission.tryEnter("bulk")?.prepare(running.work, signal);
    const queued = [
      ["bulk", "bulk-1"],
      ["bulk", "bulk-2"],
      ["interactive", "interactive-1"],
      ["interactive", "interactive-2"],
    ].map(([lane, name]) =>
      preAdmission.tryEnter(lane as "bulk" | "interactive")?.prepare(() => {
        order.push(name as string);
        return name;
      }, signal),
    );
    assert.deepEqual(preAdmission.lanes().bulk.waiting, 2);
    assert.deepEqual(preAdmission.lanes().interactive.waiting, 2);
    assert.equal(order.length, 0, "nothing runs beside the running preparation");
    running.finish("bulk-0");
    assert.equal(await first, "bulk-0");
    await Promise.all(queued);
    assert.deepEqual(order, ["interactive-1", "interactive-2", "bulk-1", "bulk-2"]);
    assert.equal(preAdmission.lanes().bulk.prepared, 3);
  });

  it("drops a waiting preparation whose signal aborts, without running it", async () => {
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: () => Number.POSITIVE_INFINITY,
    });
    const running = held();
    const first = preAdmission.tryEnter("interactive")?.prepare(running.work, new AbortController().signal);
    const gone = new AbortController();
    let ran = false;
    const dropped = preAdmission.tryEnter("bulk")?.prepare(() => {
      ran = true;
    }, gone.signal);
    const reason = new Error("the client went away");
    gone.abort(reason);
    await assert.rejects(dropped as Promise<void>, (error) => error === reason);
    running.finish("done");
    await first;
    assert.equal(ran, false);
    assert.deepEqual(preAdmission.lanes().bulk, {
      held: 1,
      waiting: 0,
      preparing: 0,
      prepared: 0,
      dropped: 1,
      refused: 0,
    });
    assert.equal(preAdmission.lanes().interactive.prepared, 1);
  });

  it("refuses a preparation when its lane's waiting room is full", async () => {
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: (lane) => (lane === "interactive" ? 1 : Number.POSITIVE_INFINITY),
    });
    const signal = new AbortController().signal;
    const running = held();
    const first = preAdmission.tryEnter("bulk")?.prepare(running.work, signal);
    const waiting = preAdmission.tryEnter("interactive")?.prepare(() => "waited", signal);
    await assert.rejects(
      preAdmission.tryEnter("interactive")?.prepare(() => "never", signal) as Promise<string>,
      PreAdmissionFullError,
    );
    running.finish("done");
    assert.deepEqual(await Promise.all([first, waiting]), ["done", "waited"]);
    assert.equal(preAdmission.lanes().interactive.refused, 1);
  });
});
