/** The gateway's error mapping and pass-through, with the real SageMaker runtime SDK client and a fake container. */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import {
  InvokeEndpointCommand,
  ModelError,
  SageMakerRuntimeClient,
  SageMakerRuntimeServiceException,
  ServiceUnavailable,
  ValidationError,
} from "@aws-sdk/client-sagemaker-runtime";
import { PortInUseError } from "../../../local/errors.js";
import {
  type SageMakerGateway,
  startSageMakerGateway,
  type UpstreamFailure,
} from "../../../local/services/startSageMakerGateway.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { closedPortUrl } from "../closedPortUrl.js";
import { listeningSockets } from "../listeningSockets.js";

interface SeenRequest {
  path: string | undefined;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A container whose answer each test sets: status, headers, body, or a delay. */
class FakeContainer {
  readonly seen: SeenRequest[] = [];
  answer: {
    status: number;
    headers?: Record<string, string>;
    body: string;
    delayMs?: number;
    until?: Promise<void>;
  } = {
    status: 200,
    body: "{}",
  };
  readonly server: Server = createServer((request, response) => void this.#handle(request, response));
  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of request) body += chunk;
    this.seen.push({ path: request.url, headers: request.headers, body });
    const { status, headers, body: text, delayMs, until } = this.answer;
    if (delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, delayMs));
    await until;
    response.writeHead(status, headers ?? { "content-type": "application/json" });
    response.end(text);
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    assert.ok(address !== null && typeof address === "object");
    return `http://127.0.0.1:${address.port}`;
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe("startSageMakerGateway with a fake container", () => {
  const container = new FakeContainer();
  let gateway: SageMakerGateway;
  let client: SageMakerRuntimeClient;

  before(async () => {
    const containerUrl = await container.listen();
    gateway = await startSageMakerGateway({
      endpoints: { decisions: containerUrl, gone: await closedPortUrl() },
      invocationTimeoutMs: 300,
      region: "eu-west-1",
    });
    client = new SageMakerRuntimeClient({
      endpoint: gateway.url,
      region: "eu-west-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
  });

  after(async () => {
    client?.destroy();
    await gateway?.stop();
    await container.close();
  });

  const invoke = (endpointName = "decisions", extra: Partial<InvokeEndpointCommand["input"]> = {}) =>
    client.send(
      new InvokeEndpointCommand({
        EndpointName: endpointName,
        ContentType: "application/json",
        Body: new TextEncoder().encode('{"x": 2.0}'),
        ...extra,
      }),
    );

  it("listens on 127.0.0.1 only", async () => {
    const mine = (await listeningSockets(process.pid)).filter((socket) => socket.port === gateway.port);
    assert.deepEqual(mine, [{ family: "tcp", address: "127.0.0.1", port: gateway.port }]);
  });

  it("forwards the body, content type, accept and custom attributes to /invocations and returns the answer", async () => {
    container.answer = {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "X-Amzn-SageMaker-Custom-Attributes": "ok=1",
      },
      body: '{"answers": {}}',
    };
    const before = gateway.invocations("decisions");
    const output = await invoke("decisions", { Accept: "application/json", CustomAttributes: "trace=abc" });
    const seen = container.seen.at(-1);
    assert.equal(seen?.path, "/invocations");
    assert.equal(seen?.body, '{"x": 2.0}');
    assert.equal(seen?.headers["content-type"], "application/json");
    assert.equal(seen?.headers.accept, "application/json");
    assert.equal(seen?.headers["x-amzn-sagemaker-custom-attributes"], "trace=abc");
    assert.equal(new TextDecoder().decode(output.Body), '{"answers": {}}');
    assert.equal(output.ContentType, "application/json; charset=utf-8");
    assert.equal(output.InvokedProductionVariant, "AllTraffic");
    assert.equal(output.CustomAttributes, "ok=1");
    assert.equal(gateway.invocations("decisions"), before + 1);
  });

  it("maps a container 503 to ModelError 424 with OriginalStatusCode and OriginalMessage", async () => {
    container.answer = { status: 503, body: '{"error": "busy", "retryable": true}' };
    await assert.rejects(invoke(), (error: unknown) => {
      assert.ok(error instanceof ModelError, String(error));
      assert.equal(error.$metadata.httpStatusCode, 424);
      assert.equal(error.OriginalStatusCode, 503);
      assert.equal(error.OriginalMessage, '{"error": "busy", "retryable": true}');
      assert.match(error.message, /^Received server error \(503\) from primary with message/);
      assert.equal(
        error.LogStreamArn,
        "arn:aws:logs:eu-west-1:000000000000:log-group:/aws/sagemaker/Endpoints/decisions",
      );
      return true;
    });
  });

  it("maps a container 400 to a client-error ModelError", async () => {
    container.answer = { status: 400, body: '{"error": "bad field"}' };
    await assert.rejects(invoke(), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.equal(error.OriginalStatusCode, 400);
      assert.match(error.message, /^Received client error \(400\)/);
      return true;
    });
  });

  it("maps a container slower than the invocation timeout to a ModelError without a status", async () => {
    container.answer = { status: 200, body: "{}", delayMs: 2_000 };
    await assert.rejects(invoke(), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.equal(error.OriginalStatusCode, undefined);
      assert.match(error.message, /timed out while waiting for a response from container primary/);
      return true;
    });
  });

  it("answers an unknown endpoint with ValidationError 400, counting nothing", async () => {
    await assert.rejects(invoke("nope"), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.$metadata.httpStatusCode, 400);
      assert.equal(error.message, "Endpoint nope of account 000000000000 not found.");
      return true;
    });
    assert.equal(gateway.invocations("nope"), 0);
  });

  it("answers 400 to an endpoint name that is not valid percent-encoding", async () => {
    const response = await fetch(`${gateway.url}/endpoints/%E0%A4%A/invocations`, {
      method: "POST",
      body: "{}",
    });

    assert.equal(response.status, 400);
    assert.match(await response.text(), /not valid percent-encoding/);
  });

  it("answers ServiceUnavailable 503 when the container is unreachable", async () => {
    await assert.rejects(invoke("gone"), (error: unknown) => {
      assert.ok(error instanceof ServiceUnavailable);
      assert.equal(error.$metadata.httpStatusCode, 503);
      return true;
    });
    assert.equal(gateway.invocations("gone"), 1);
  });

  it("names the port when it is taken", async () => {
    await assert.rejects(startSageMakerGateway({ port: gateway.port, endpoints: {} }), PortInUseError);
  });
});

describe("startSageMakerGateway with a concurrency limit", () => {
  it("throttles invocations beyond the limit with a ThrottlingException", async () => {
    const container = new FakeContainer();
    let release!: () => void;
    container.answer = { status: 200, body: "{}", until: new Promise((resolve) => (release = resolve)) };
    const gateway = await startSageMakerGateway({
      endpoints: { decisions: await container.listen() },
      maxConcurrentInvocations: 1,
    });
    const client = new SageMakerRuntimeClient({
      endpoint: gateway.url,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    try {
      const send = () =>
        client.send(
          new InvokeEndpointCommand({ EndpointName: "decisions", Body: new TextEncoder().encode("{}") }),
        );
      const first = send();
      // The second is sent while the container holds the first, so it is over the limit.
      while (container.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await assert.rejects(send(), (error: unknown) => {
        assert.ok(error instanceof SageMakerRuntimeServiceException);
        assert.equal(error.name, "ThrottlingException");
        assert.equal(error.$metadata.httpStatusCode, 429);
        return true;
      });
      release();
      await first;
      assert.equal(gateway.invocations("decisions"), 2);
    } finally {
      client.destroy();
      await gateway.stop();
      await container.close();
    }
  });
});

describe("startSageMakerGateway when the caller gives up", () => {
  it("aborts the call to the container once the caller closes its connection", async () => {
    // A container that never answers, noting when the gateway's call to it is closed.
    let seen = 0;
    let closed = 0;
    const container = createServer((request, response) => {
      seen += 1;
      request.resume();
      response.once("close", () => {
        closed += 1;
      });
    });
    await new Promise<void>((resolve) => container.listen(0, "127.0.0.1", resolve));
    const address = container.address();
    assert.ok(address !== null && typeof address === "object");
    const failures: UpstreamFailure[] = [];
    // The gateway's own timeout is far away: only the caller's leaving can end the call.
    const gateway = await startSageMakerGateway({
      endpoints: { decisions: `http://127.0.0.1:${address.port}` },
      invocationTimeoutMs: 600_000,
      onUpstreamFailure: (failure) => failures.push(failure),
    });
    const client = new SageMakerRuntimeClient({
      endpoint: gateway.url,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    try {
      const caller = new AbortController();
      const call = client
        .send(
          new InvokeEndpointCommand({ EndpointName: "decisions", Body: new TextEncoder().encode("{}") }),
          {
            abortSignal: caller.signal,
          },
        )
        .catch((error: unknown) => error);
      while (seen === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      caller.abort();
      assert.equal(((await call) as Error).name, "AbortError");
      for (let waited = 0; closed === 0 && waited < 30_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(closed, 1, "the gateway closed its call to the container");
      assert.deepEqual(failures, [], "a caller's leaving is not an upstream failure");
    } finally {
      client.destroy();
      await gateway.stop();
      container.closeAllConnections();
      await new Promise((resolve) => container.close(resolve));
    }
  });
});

describe("startSageMakerGateway telling of failed calls to the container", () => {
  it("tells onUpstreamFailure the connection error behind a 503 ServiceUnavailable", async () => {
    const failures: UpstreamFailure[] = [];
    const gateway = await startSageMakerGateway({
      endpoints: { gone: await closedPortUrl() },
      onUpstreamFailure: (failure) => failures.push(failure),
    });
    try {
      const response = await fetch(`${gateway.url}/endpoints/gone/invocations`, {
        method: "POST",
        body: "{}",
      });
      await response.arrayBuffer();
      await new Promise((resolve) => setImmediate(resolve));

      assert.equal(response.status, 503);
      assert.equal(failures.length, 1);
      assert.equal(failures[0]?.endpoint, "gone");
      assert.equal(failures[0]?.timedOut, false);
      assert.equal(causeCodes(failures[0]?.error).includes("ECONNREFUSED"), true, String(failures[0]?.error));
    } finally {
      await gateway.stop();
    }
  });

  it("tells onUpstreamFailure of a call that timed out, answered 424", async () => {
    const container = new FakeContainer();
    container.answer = { status: 200, body: "{}", delayMs: 1_000 };
    const failures: UpstreamFailure[] = [];
    const gateway = await startSageMakerGateway({
      endpoints: { decisions: await container.listen() },
      invocationTimeoutMs: 100,
      onUpstreamFailure: (failure) => failures.push(failure),
    });
    try {
      const response = await fetch(`${gateway.url}/endpoints/decisions/invocations`, {
        method: "POST",
        body: "{}",
      });
      await response.arrayBuffer();
      await new Promise((resolve) => setImmediate(resolve));

      assert.equal(response.status, 424);
      assert.deepEqual(
        failures.map((failure) => [failure.endpoint, failure.timedOut]),
        [["decisions", true]],
      );
    } finally {
      await gateway.stop();
      await container.close();
    }
  });
});

/** The `code` of an error and of each of its causes. */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined) codes.push(code);
  }
  return codes;
}
