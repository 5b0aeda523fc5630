/** The gateway as a child process, in front of a tiny local container and in front of a closed port. */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { type GatewayProcess, startGatewayProcess } from "../../../local/services/startGatewayProcess.js";
import { closedPortUrl } from "../closedPortUrl.js";
import { listeningSockets } from "../listeningSockets.js";

/** A container that answers every request 200 with its body echoed. */
function echoContainer(): Server {
  return createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
    });
  });
}

const invoke = (gateway: GatewayProcess, endpoint: string): Promise<Response> =>
  fetch(`${gateway.url}/endpoints/${endpoint}/invocations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"x": 1}',
  });

describe("startGatewayProcess", { timeout: 60_000 }, () => {
  const container = echoContainer();
  let gateway: GatewayProcess;

  before(async () => {
    await new Promise<void>((resolve) => container.listen(0, "127.0.0.1", resolve));
    const address = container.address();
    assert.ok(address !== null && typeof address === "object");
    gateway = await startGatewayProcess({
      endpoints: { decisions: `http://127.0.0.1:${address.port}`, gone: await closedPortUrl() },
    });
  });

  after(async () => {
    await gateway?.stop();
    container.closeAllConnections();
    await new Promise((resolve) => container.close(resolve));
  });

  it("runs in its own process, listening on 127.0.0.1 only", async () => {
    assert.ok(gateway.pid !== undefined && gateway.pid !== process.pid);
    assert.deepEqual(await listeningSockets(gateway.pid), [
      { family: "tcp", address: "127.0.0.1", port: gateway.port },
    ]);
  });

  it("forwards an invocation to the container and returns its answer", async () => {
    const response = await invoke(gateway, "decisions");

    assert.equal(response.status, 200);
    assert.equal(await response.text(), '{"x": 1}');
    assert.equal(response.headers.get("x-amzn-invoked-production-variant"), "AllTraffic");
  });

  it("answers 503 for a container on a closed port and counts the failure by its error", async () => {
    const before = gateway.upstreamFailures().count;

    const response = await invoke(gateway, "gone");
    await response.arrayBuffer();
    let failures = gateway.upstreamFailures();
    // The failure's log line comes through the child's stdout, shortly after the answer.
    for (let wait = 0; failures.count === before && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      failures = gateway.upstreamFailures();
    }

    assert.equal(response.status, 503);
    assert.equal(failures.count, before + 1);
    const errors = Object.keys(failures.byError);
    assert.equal(errors.length, 1, errors.join("\n"));
    assert.match(errors[0] ?? "", /^fetch failed: .*ECONNREFUSED/);
    assert.match(gateway.output(), /"event":"upstream_failed","endpoint":"gone","timed_out":false/);
  });

  it("exits when stopped", async () => {
    const other = await startGatewayProcess({ endpoints: {} });

    await other.stop();

    assert.equal(await other.exited, 0);
  });
});
