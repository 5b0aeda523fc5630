import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { AdmissionGate } from "../../../adapter/server/AdmissionGate.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

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
});
