import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PreAdmissionFullError } from "../../../adapter/server/errors.js";
import { BULK_PREPARATION_OVERTAKE_LIMIT, PreAdmission } from "../../../adapter/server/PreAdmission.js";

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
      deferred: 0,
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
    ].map(async ([lane, name]) => {
      const place = preAdmission.tryEnter(lane as "bulk" | "interactive");
      try {
        return await place?.prepare(() => {
          order.push(name as string);
          return name;
        }, signal);
      } finally {
        place?.leave(); // as the server does once the request is admitted or answered
      }
    });
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
      deferred: 0,
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

  it("starts no bulk preparation while an interactive request is prepared or admitted, and starts it when that ends", async () => {
    // prepare: a fake prompt worker that notes what it is asked to prepare; a gate's interactive count
    let admitted = 0;
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: () => Number.POSITIVE_INFINITY,
      interactiveAdmitted: () => admitted > 0,
    });
    const worker: string[] = [];
    const prepare = (name: string) => () => {
      worker.push(name);
      return name;
    };
    const signal = new AbortController().signal;

    // act: an interactive request is prepared; a bulk one arrives before it is admitted, then while it is
    const incident = preAdmission.tryEnter("interactive");
    assert.ok(incident);
    assert.equal(await incident.prepare(prepare("incident"), signal), "incident");
    const bulk = preAdmission.tryEnter("bulk")?.prepare(prepare("bulk"), signal);
    await Promise.resolve();
    assert.deepEqual(worker, ["incident"], "held while the interactive request is on its way to the gate");
    admitted += 1; // the server admits it, then gives its place back
    incident.leave();
    await Promise.resolve();
    assert.deepEqual(worker, ["incident"], "held while the interactive request is admitted");
    assert.equal(preAdmission.lanes().bulk.waiting, 1);
    admitted -= 1; // answered: the gate says so
    preAdmission.recheck();

    // assert
    assert.equal(await bulk, "bulk");
    assert.deepEqual(worker, ["incident", "bulk"]);
    assert.equal(preAdmission.lanes().bulk.deferred, 1);
  });

  it("lets an interactive preparation run while bulk ones are held, and keeps bulk ones in arrival order", async () => {
    let admitted = 1;
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: () => Number.POSITIVE_INFINITY,
      interactiveAdmitted: () => admitted > 0,
    });
    const order: string[] = [];
    const signal = new AbortController().signal;
    const run = (lane: "bulk" | "interactive", name: string) => {
      const place = preAdmission.tryEnter(lane);
      const done = place?.prepare(() => {
        order.push(name);
      }, signal);
      return { place, done };
    };

    const bulk1 = run("bulk", "bulk-1");
    const bulk2 = run("bulk", "bulk-2");
    const incident = run("interactive", "incident");
    await incident.done;
    incident.place?.leave();
    admitted = 0;
    preAdmission.recheck();
    await Promise.all([bulk1.done, bulk2.done]);

    assert.deepEqual(order, ["incident", "bulk-1", "bulk-2"]);
  });

  it("prepares the oldest held bulk request once BULK_PREPARATION_OVERTAKE_LIMIT interactive ones ran while it waited", async () => {
    // prepare: interactive work never ends
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: () => Number.POSITIVE_INFINITY,
      interactiveAdmitted: () => true,
    });
    const order: string[] = [];
    const signal = new AbortController().signal;
    const bulk = preAdmission.tryEnter("bulk")?.prepare(() => {
      order.push("bulk");
    }, signal);

    // act: interactive requests, one after another, each prepared and admitted
    for (let i = 0; i < BULK_PREPARATION_OVERTAKE_LIMIT + 1; i += 1) {
      const place = preAdmission.tryEnter("interactive");
      await place?.prepare(() => {
        order.push(`incident-${i}`);
      }, signal);
      place?.leave();
    }
    await bulk;

    // assert
    const expected = Array.from({ length: BULK_PREPARATION_OVERTAKE_LIMIT }, (_, i) => `incident-${i}`);
    assert.deepEqual(order, [...expected, "bulk", `incident-${BULK_PREPARATION_OVERTAKE_LIMIT}`]);
  });

  it("drops a held bulk preparation whose client hangs up, without running it", async () => {
    let admitted = 1;
    const preAdmission = new PreAdmission({
      limitOf: () => Number.POSITIVE_INFINITY,
      maxWaiting: () => Number.POSITIVE_INFINITY,
      interactiveAdmitted: () => admitted > 0,
    });
    const gone = new AbortController();
    let ran = false;
    const place = preAdmission.tryEnter("bulk");
    const held = place?.prepare(() => {
      ran = true;
    }, gone.signal);
    const reason = new Error("the client went away");
    gone.abort(reason);
    await assert.rejects(held as Promise<void>, (error) => error === reason);
    place?.leave();
    admitted = 0;
    preAdmission.recheck();

    assert.equal(ran, false);
    assert.deepEqual(preAdmission.lanes().bulk, {
      held: 0,
      waiting: 0,
      preparing: 0,
      prepared: 0,
      dropped: 1,
      refused: 0,
      deferred: 1,
    });
  });
});
