import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  AdmissionGate,
  type AdmissionTicket,
  BULK_OVERTAKE_LIMIT,
} from "../../../adapter/server/AdmissionGate.js";
import { LANES, type Lane } from "../../../contract/lanes/lanes.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

/** Lets every pending promise callback run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Admits a request of `lane`, failing the test when the gate refuses it. */
function admit(gate: AdmissionGate, lane: Lane): AdmissionTicket {
  const ticket = gate.tryAdmit(lane);
  assert.ok(ticket, `a ${lane} request was refused with ${gate.admitted} admitted`);
  return ticket;
}

describe("AdmissionGate", () => {
  it("admits running plus queued requests and refuses the next", () => {
    const gate = new AdmissionGate({ maxInFlight: 2, queueDepth: 1 });
    const tickets = [gate.tryAdmit(), gate.tryAdmit(), gate.tryAdmit()];
    assert.ok(tickets.every((ticket) => ticket !== undefined));
    assert.equal(gate.tryAdmit(), undefined);
    tickets[0]?.release();
    assert.notEqual(gate.tryAdmit(), undefined);
  });

  it("runs at most maxInFlight at once and hands slots on in arrival order", async () => {
    const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 2 });
    const [a, b, c] = [gate.tryAdmit(), gate.tryAdmit(), gate.tryAdmit()];
    assert.ok(a && b && c);
    const order: string[] = [];
    await a.start();
    const startedB = b.start().then(() => order.push("b"));
    const startedC = c.start().then(() => order.push("c"));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gate.running, 1);
    assert.deepEqual(order, []);
    a.release();
    await startedB;
    assert.deepEqual(order, ["b"]);
    b.release();
    await startedC;
    assert.deepEqual(order, ["b", "c"]);
    c.release();
    assert.equal(gate.admitted, 0);
    assert.equal(gate.running, 0);
  });

  it("starts a waiting bulk request after BULK_OVERTAKE_LIMIT interactive ones overtook it, however many interactive ones wait", async () => {
    const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 40 });
    const started: string[] = [];
    const running = admit(gate, "interactive");
    await running.start();
    const bulk = admit(gate, "bulk");
    const waiting = [bulk.start().then(() => started.push("bulk"))];
    const interactive = Array.from({ length: 2 * BULK_OVERTAKE_LIMIT }, (_, i) => {
      const ticket = admit(gate, "interactive");
      waiting.push(ticket.start().then(() => started.push(`interactive-${i}`)));
      return ticket;
    });
    // Sustained interactive load: each running request ends with interactive requests still waiting.
    running.release();
    for (const ticket of [
      ...interactive.slice(0, BULK_OVERTAKE_LIMIT),
      bulk,
      ...interactive.slice(BULK_OVERTAKE_LIMIT),
    ]) {
      await settle();
      ticket.release();
    }
    await Promise.all(waiting);
    assert.equal(started.indexOf("bulk"), BULK_OVERTAKE_LIMIT, `started in order ${started}`);
    assert.deepEqual(
      started.filter((name) => name !== "bulk"),
      interactive.map((_, i) => `interactive-${i}`),
    );
  });

  it("lets a waiting request leave when its signal aborts", async () => {
    const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 1 });
    const [a, b] = [gate.tryAdmit(), gate.tryAdmit()];
    assert.ok(a && b);
    await a.start();
    const controller = new AbortController();
    const waiting = b.start(controller.signal);
    controller.abort(new Error("deadline"));
    await assert.rejects(waiting, /deadline/);
    b.release();
    a.release();
    assert.equal(gate.admitted, 0);
    assert.equal(gate.running, 0);
  });

  it("resolves idle() once every admitted request is released", async () => {
    const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 0 });
    await gate.idle();
    const ticket = gate.tryAdmit();
    let idle = false;
    const waiting = gate.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(idle, false);
    ticket?.release();
    await waiting;
    assert.equal(idle, true);
  });

  it("keeps its counts consistent under any sequence of admits, starts, aborts and releases", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.tuple(fc.constantFrom("admit", "start", "abort", "release"), fc.nat()), {
          maxLength: 40,
        }),
        async (maxInFlight, queueDepth, steps) => {
          const gate = new AdmissionGate({ maxInFlight, queueDepth });
          const live: Array<{
            ticket: NonNullable<ReturnType<AdmissionGate["tryAdmit"]>>;
            controller: AbortController;
            started: boolean;
          }> = [];
          for (const [action, pick] of steps) {
            const entry = live[pick % Math.max(1, live.length)];
            if (action === "admit") {
              const ticket = gate.tryAdmit();
              assert.equal(ticket === undefined, live.length >= maxInFlight + queueDepth);
              if (ticket) live.push({ ticket, controller: new AbortController(), started: false });
            } else if (entry !== undefined && action === "start" && !entry.started) {
              entry.started = true;
              entry.ticket.start(entry.controller.signal).catch(() => undefined);
            } else if (entry !== undefined && action === "abort") {
              entry.controller.abort(new Error("abort"));
            } else if (entry !== undefined && action === "release") {
              entry.ticket.release();
              live.splice(live.indexOf(entry), 1);
            }
            await new Promise((resolve) => setImmediate(resolve));
            assert.equal(gate.admitted, live.length);
            assert.ok(gate.running <= maxInFlight);
          }
          for (const entry of live) entry.ticket.release();
          await new Promise((resolve) => setImmediate(resolve));
          assert.equal(gate.admitted, 0);
          assert.equal(gate.running, 0);
        },
      ),
      { numRuns: propertyRuns(process.env, 200) },
    );
  });

  describe("lanes", () => {
    it("admits a request that names no lane as interactive", () => {
      const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 1, interactiveReserve: 1 });
      const ticket = gate.tryAdmit();
      assert.equal(ticket?.lane, "interactive");
      assert.deepEqual(gate.lanes().interactive, { admitted: 1, running: 0, waiting: 0 });
    });

    it("starts every waiting interactive request before any waiting bulk request, each lane in arrival order", async () => {
      const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 5 });
      const running = admit(gate, "bulk");
      await running.start();
      const order: string[] = [];
      const waiting = [
        ["bulk-1", admit(gate, "bulk")],
        ["bulk-2", admit(gate, "bulk")],
        ["interactive-1", admit(gate, "interactive")],
        ["bulk-3", admit(gate, "bulk")],
        ["interactive-2", admit(gate, "interactive")],
      ] as const;
      const started = waiting.map(([name, ticket]) => ticket.start().then(() => order.push(name)));
      await settle();
      assert.deepEqual(gate.lanes(), {
        interactive: { admitted: 2, running: 0, waiting: 2 },
        bulk: { admitted: 4, running: 1, waiting: 3 },
      });

      running.release();
      for (const [, ticket] of waiting) {
        await settle();
        ticket.release();
      }
      await Promise.all(started);

      assert.deepEqual(order, ["interactive-1", "interactive-2", "bulk-1", "bulk-2", "bulk-3"]);
      assert.equal(gate.admitted, 0);
      assert.equal(gate.running, 0);
    });

    it("hands the next freed slot to an interactive request that arrives behind waiting bulk requests", async () => {
      const gate = new AdmissionGate({ maxInFlight: 2, queueDepth: 4, interactiveReserve: 2 });
      const runningA = admit(gate, "bulk");
      const runningB = admit(gate, "bulk");
      await Promise.all([runningA.start(), runningB.start()]);
      const bulk = [admit(gate, "bulk"), admit(gate, "bulk")];
      const order: string[] = [];
      const bulkStarted = bulk.map((ticket, i) => ticket.start().then(() => order.push(`bulk-${i}`)));
      assert.equal(gate.tryAdmit("bulk"), undefined, "the bulk share is full");

      const incident = admit(gate, "interactive");
      const incidentStarted = incident.start().then(() => order.push("interactive"));
      await settle();
      assert.deepEqual(order, []);
      runningA.release();
      await incidentStarted;

      assert.deepEqual(order, ["interactive"]);
      assert.deepEqual(gate.lanes().interactive, { admitted: 1, running: 1, waiting: 0 });
      assert.deepEqual(gate.lanes().bulk, { admitted: 3, running: 1, waiting: 2 });
      for (const ticket of [runningB, incident, ...bulk]) ticket.release();
      await Promise.all(bulkStarted);
      assert.deepEqual(order, ["interactive", "bulk-0", "bulk-1"]);
    });

    it("refuses bulk requests the last interactiveReserve places and admits interactive ones into them", () => {
      const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 3, interactiveReserve: 2 });
      assert.equal(gate.capacityOf("bulk"), 2);
      assert.equal(gate.capacityOf("interactive"), 4);
      admit(gate, "bulk");
      admit(gate, "bulk");

      assert.equal(gate.hasRoomFor("bulk"), false);
      assert.equal(gate.tryAdmit("bulk"), undefined);
      assert.equal(gate.hasRoomFor("interactive"), true);
      admit(gate, "interactive");
      admit(gate, "interactive");
      assert.equal(gate.tryAdmit("interactive"), undefined, "the whole gate is full");
      assert.equal(gate.admitted, 4);
    });

    it("counts interactive requests against the bulk share: bulk is refused while interactive requests hold it", () => {
      const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 2, interactiveReserve: 1 });
      const first = admit(gate, "interactive");
      admit(gate, "interactive");
      assert.equal(gate.tryAdmit("bulk"), undefined);
      first.release();
      assert.equal(admit(gate, "bulk").lane, "bulk");
    });

    it("lets bulk requests use every place when the reserve is 0, and every running slot whatever the reserve", async () => {
      const open = new AdmissionGate({ maxInFlight: 2, queueDepth: 2 });
      const all = [admit(open, "bulk"), admit(open, "bulk"), admit(open, "bulk"), admit(open, "bulk")];
      assert.equal(open.tryAdmit("bulk"), undefined);
      for (const ticket of all) ticket.release();

      const reserved = new AdmissionGate({ maxInFlight: 3, queueDepth: 2, interactiveReserve: 2 });
      const bulk = [admit(reserved, "bulk"), admit(reserved, "bulk"), admit(reserved, "bulk")];
      await Promise.all(bulk.map((ticket) => ticket.start()));
      assert.equal(reserved.running, 3, "no interactive request waits: bulk runs on every slot");
      assert.equal(reserved.tryAdmit("bulk"), undefined);
      for (const ticket of bulk) ticket.release();
      assert.equal(reserved.admitted, 0);
    });

    it("gives the slot to waiting bulk requests once the waiting interactive request aborts", async () => {
      const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 2 });
      const running = admit(gate, "bulk");
      await running.start();
      const bulk = admit(gate, "bulk");
      const incident = admit(gate, "interactive");
      const bulkStarted = bulk.start();
      const controller = new AbortController();
      const incidentStarted = incident.start(controller.signal);
      controller.abort(new Error("deadline"));
      await assert.rejects(incidentStarted, /deadline/);
      assert.deepEqual(gate.lanes().interactive, { admitted: 1, running: 0, waiting: 0 });

      running.release();
      await bulkStarted;

      assert.deepEqual(gate.lanes().bulk, { admitted: 1, running: 1, waiting: 0 });
      incident.release();
      bulk.release();
      assert.equal(gate.admitted, 0);
      assert.equal(gate.running, 0);
    });

    it("hands the slot of an interactive request released while it waited on to the waiting bulk request", async () => {
      const gate = new AdmissionGate({ maxInFlight: 1, queueDepth: 2 });
      const running = admit(gate, "bulk");
      await running.start();
      const incident = admit(gate, "interactive");
      const bulk = admit(gate, "bulk");
      const incidentStarted = incident.start();
      const bulkStarted = bulk.start();
      incident.release();
      assert.deepEqual(gate.lanes().interactive, { admitted: 0, running: 0, waiting: 1 });

      running.release();
      await Promise.all([incidentStarted, bulkStarted]);

      assert.deepEqual(gate.lanes(), {
        interactive: { admitted: 0, running: 0, waiting: 0 },
        bulk: { admitted: 1, running: 1, waiting: 0 },
      });
      bulk.release();
      assert.equal(gate.running, 0);
    });

    it("refuses an interactive reserve deeper than the queue, or not a whole number", () => {
      assert.throws(
        () => new AdmissionGate({ maxInFlight: 1, queueDepth: 2, interactiveReserve: 3 }),
        (error: unknown) =>
          error instanceof RangeError &&
          /interactiveReserve .* 0 to queueDepth \(2\), got 3/.test(error.message),
      );
      assert.throws(
        () => new AdmissionGate({ maxInFlight: 1, queueDepth: 2, interactiveReserve: -1 }),
        RangeError,
      );
      assert.throws(
        () => new AdmissionGate({ maxInFlight: 1, queueDepth: 2, interactiveReserve: 0.5 }),
        RangeError,
      );
      assert.equal(
        new AdmissionGate({ maxInFlight: 1, queueDepth: 2, interactiveReserve: 2 }).capacityOf("bulk"),
        1,
      );
    });

    it("admits by lane, starts interactive first and keeps per-lane counts under any sequence of steps", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 3 }),
          fc
            .integer({ min: 0, max: 4 })
            .chain((queueDepth) =>
              fc.tuple(fc.constant(queueDepth), fc.integer({ min: 0, max: queueDepth })),
            ),
          fc.array(
            fc.tuple(
              fc.constantFrom("admit", "start", "abort", "release"),
              fc.nat(),
              fc.constantFrom(...LANES),
            ),
            { maxLength: 50 },
          ),
          async (maxInFlight, [queueDepth, interactiveReserve], steps) => {
            const gate = new AdmissionGate({ maxInFlight, queueDepth, interactiveReserve });
            const live: Array<{ ticket: AdmissionTicket; controller: AbortController; started: boolean }> =
              [];
            let calls = 0;
            const granted: Record<Lane, number[]> = { interactive: [], bulk: [] };
            const faults: string[] = [];
            for (const [action, pick, lane] of steps) {
              const entry = live[pick % Math.max(1, live.length)];
              if (action === "admit") {
                const limit =
                  lane === "bulk" ? maxInFlight + queueDepth - interactiveReserve : maxInFlight + queueDepth;
                const ticket = gate.tryAdmit(lane);
                assert.equal(
                  ticket === undefined,
                  live.length >= limit,
                  `${lane} with ${live.length} admitted`,
                );
                if (ticket) live.push({ ticket, controller: new AbortController(), started: false });
              } else if (entry !== undefined && action === "start" && !entry.started) {
                entry.started = true;
                const call = calls++;
                const own = entry.ticket.lane;
                entry.ticket.start(entry.controller.signal).then(
                  () => {
                    granted[own].push(call);
                    if (own === "bulk" && gate.lanes().interactive.waiting > 0) {
                      faults.push(`bulk call ${call} started while an interactive request waited`);
                    }
                  },
                  () => undefined,
                );
              } else if (entry !== undefined && action === "abort") {
                entry.controller.abort(new Error("abort"));
              } else if (entry !== undefined && action === "release") {
                entry.ticket.release();
                live.splice(live.indexOf(entry), 1);
              }
              await settle();
              const lanes = gate.lanes();
              for (const own of LANES) {
                assert.equal(lanes[own].admitted, live.filter((e) => e.ticket.lane === own).length);
              }
              assert.equal(lanes.interactive.running + lanes.bulk.running, gate.running);
              assert.ok(gate.running <= maxInFlight);
              if (lanes.interactive.waiting + lanes.bulk.waiting > 0) assert.equal(gate.running, maxInFlight);
            }
            for (const entry of live) entry.ticket.release();
            await settle();
            assert.deepEqual(faults, []);
            for (const own of LANES) {
              const order = granted[own];
              assert.deepEqual(
                order,
                [...order].sort((a, b) => a - b),
                `${own} requests started out of order`,
              );
            }
            assert.equal(gate.admitted, 0);
            assert.equal(gate.running, 0);
          },
        ),
        { numRuns: propertyRuns(process.env, 200) },
      );
    });
  });
});
