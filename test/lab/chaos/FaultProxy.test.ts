/** The chaos run's fault proxy in front of a small loopback server standing in for the adapter. */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { FaultProxy, type ProxyExchange } from "../../../lab/chaos/FaultProxy.js";

async function startTarget(name: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ from: name, echo: Buffer.concat(chunks).toString("utf8") }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function post(url: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/invocations`, { method: "POST", body });
  return { status: response.status, body: await response.text() };
}

describe("FaultProxy", () => {
  let first: { server: Server; url: string };
  let second: { server: Server; url: string };
  let proxy: FaultProxy;
  const exchanges: ProxyExchange[] = [];

  before(async () => {
    first = await startTarget("first");
    second = await startTarget("second");
    proxy = await FaultProxy.start({
      target: first.url,
      random: new SeededRandom(1),
      onExchange: (exchange) => exchanges.push(exchange),
    });
  });

  after(async () => {
    await proxy.stop();
    for (const target of [first, second]) await new Promise((resolve) => target.server.close(resolve));
  });

  it("forwards calls unchanged and reports each upstream answer", async () => {
    const answer = await post(proxy.url, "hello");

    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { from: "first", echo: "hello" });
    assert.equal(JSON.parse(exchanges.at(-1)?.body ?? "{}").echo, "hello");
  });

  it("answers the injected status to about the share of calls asked, without forwarding them", async () => {
    const before = proxy.stats();
    proxy.inject({ kind: "error", status: 503, share: 0.5 });

    const statuses = [];
    for (let i = 0; i < 40; i += 1) statuses.push((await post(proxy.url, "x")).status);
    proxy.inject(undefined);

    const failed = statuses.filter((status) => status === 503).length;
    assert.ok(failed > 8 && failed < 32, `${failed} of 40`);
    assert.equal(statuses.length - failed, proxy.stats().forwarded - before.forwarded);
  });

  it("holds answers back when slow, and follows a new target", async () => {
    proxy.inject({ kind: "slow", share: 1, delayMs: [50, 60] });
    const before = proxy.stats();
    await post(proxy.url, "slow");
    proxy.inject(undefined);
    proxy.setTarget(second.url);

    const answer = await post(proxy.url, "again");

    assert.equal(proxy.stats().slowed, before.slowed + 1);
    assert.equal(JSON.parse(answer.body).from, "second");
  });

  it("answers 502 when the target cannot be reached", async () => {
    const closed = await startTarget("closed");
    await new Promise((resolve) => closed.server.close(resolve));
    proxy.setTarget(closed.url);

    const answer = await post(proxy.url, "x");
    proxy.setTarget(first.url);

    assert.equal(answer.status, 502);
    assert.ok(proxy.stats().upstreamFailures >= 1);
  });

  it("counts each lane's calls and the faults they met by the custom attributes each call names", async () => {
    const before = proxy.stats();
    proxy.inject({ kind: "error", status: 503, share: 1 });
    const send = (attributes?: string) =>
      fetch(`${proxy.url}/invocations`, {
        method: "POST",
        body: "x",
        headers: attributes === undefined ? {} : { "X-Amzn-SageMaker-Custom-Attributes": attributes },
      }).then((response) => response.text());
    await send("lane=bulk");
    await send("trace=1;lane=bulk");
    await send("lane=interactive");
    await send();
    proxy.inject(undefined);

    const { byLane } = proxy.stats();
    assert.equal(byLane.bulk.requests - before.byLane.bulk.requests, 2);
    assert.equal(byLane.bulk.injectedErrors - before.byLane.bulk.injectedErrors, 2);
    assert.equal(byLane.interactive.injectedErrors - before.byLane.interactive.injectedErrors, 1);
    assert.equal(byLane.none.requests - before.byLane.none.requests, 1);
  });
});
