/**
 * Slow senders cannot take the capacity a normal request needs (issue 30, #4): request bodies are
 * charged by the bytes they hold, not by a slot; a body slower than the pace is cut with 408;
 * headers have a deadline; connections are bounded per remote address. A DecisionServer on the
 * fake engine, over loopback.
 */
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { describe, it } from "node:test";
import { send } from "./httpClient.js";
import { startFakeServer } from "./serverHarness.js";
import { openSlowSenders, statusLine } from "./slowSenders.js";

const SYSTEM_ONE = {
  state: "The checkout page fails for every customer.",
  questions: {
    team: { type: "choice", instructions: "Which team owns this?", criteria: ["web", "payments"] },
  },
};

/** A pace nothing in these tests reaches: only what a test sets cuts a sender. */
const NEVER_CUT = { graceMs: 3_600_000, windowMs: 1_000, minBytesPerSecond: 1 };

/** Resolves once `socket` closes, with what the server wrote to it. */
function closedWith(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(text));
  });
}

async function connected(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  return socket;
}

describe("slow senders", () => {
  it("answers a System One request 200 while 40 senders that stalled after one body byte are open", async () => {
    const h = await startFakeServer({ bodyTimeoutSeconds: 3600 }, {}, { bodyPace: NEVER_CUT });
    try {
      const slow = await openSlowSenders(h.port, 40, "/v1/systemone");
      // A round trip after the 40: the server has taken their headers and first bytes in by now.
      assert.equal((await send(h.port, { method: "GET", path: "/ping" })).status, 200);

      const normal = await send(h.port, { path: "/v1/systemone", body: SYSTEM_ONE });

      assert.equal(normal.status, 200, normal.text);
      assert.equal(slow.closed(), 0, "the 40 slow senders are still connected");
      slow.destroy();
    } finally {
      await h.close();
    }
  });

  it("cuts a body that stalls after one byte with 408 for its pace, long before the body deadline", async () => {
    const pace = { graceMs: 100, windowMs: 100, minBytesPerSecond: 1_024 };
    const h = await startFakeServer({ bodyTimeoutSeconds: 3600 }, {}, { bodyPace: pace });
    try {
      const slow = await openSlowSenders(h.port, 3, "/invocations");

      const answers = await Promise.all(slow.answers);

      for (const answer of answers) {
        assert.equal(statusLine(answer), "HTTP/1.1 408 Request Timeout");
        assert.match(answer, /slower than 1024 bytes per second/);
      }
      const normal = await send(h.port, { path: "/v1/systemone", body: SYSTEM_ONE });
      assert.equal(normal.status, 200, normal.text);
    } finally {
      await h.close();
    }
  });

  it("charges reads by the bytes they hold: a full-size body is refused 503 before it is read, a small one passes", async () => {
    // Room for one body of 2,000 bytes; a stalled sender holds one byte of it.
    const h = await startFakeServer(
      { bodyTimeoutSeconds: 3600, maxBodyReads: 1, maxBodyBytes: 2_000 },
      {},
      { bodyPace: NEVER_CUT },
    );
    try {
      const slow = await openSlowSenders(h.port, 1, "/invocations");
      assert.equal((await send(h.port, { method: "GET", path: "/ping" })).status, 200);

      const full = await send(h.port, {
        path: "/v1/systemone",
        body: JSON.stringify(SYSTEM_ONE).padEnd(2_000, " "),
      });
      const small = await send(h.port, { path: "/v1/systemone", body: SYSTEM_ONE });

      assert.equal(full.status, 503, full.text);
      assert.equal(full.headers["retry-after"], "1");
      assert.equal(small.status, 200, small.text);
      slow.destroy();
    } finally {
      await h.close();
    }
  });

  it("closes connections beyond the per-address bound, and serves again once they close", async () => {
    const limits = { maxConnections: 100, maxConnectionsPerAddress: 3, headersTimeoutMs: 3_600_000 };
    const h = await startFakeServer({}, {}, { connectionLimits: limits });
    try {
      const idle = [await connected(h.port), await connected(h.port), await connected(h.port)];
      const fourth = await connected(h.port);

      assert.equal(await closedWith(fourth), "", "closed before anything was read from it");
      await Promise.all(
        idle.map((socket) => {
          const closed = closedWith(socket);
          socket.destroy();
          return closed;
        }),
      );
      // The server sees the three close a moment after the client does: retry until it has.
      let answer = await send(h.port, { method: "GET", path: "/ping" }).catch(() => undefined);
      while (answer?.status !== 200) {
        await new Promise((resolve) => setImmediate(resolve));
        answer = await send(h.port, { method: "GET", path: "/ping" }).catch(() => undefined);
      }
      assert.equal(answer.status, 200);
    } finally {
      await h.close();
    }
  });

  it("answers 408 and closes a connection whose headers do not arrive within the headers deadline", async () => {
    const limits = { maxConnections: 100, maxConnectionsPerAddress: 100, headersTimeoutMs: 200 };
    const h = await startFakeServer({}, {}, { connectionLimits: limits });
    try {
      const socket = await connected(h.port);
      const closed = closedWith(socket);

      socket.write("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\n");

      assert.equal(statusLine(await closed), "HTTP/1.1 408 Request Timeout");
    } finally {
      await h.close();
    }
  });
});
