/**
 * HubClient's reading of answers the loopback test hub does not give: bare statuses without an
 * `X-Error-Code`, a weak ETag, a mirror that serves the file itself (no redirect), a server that
 * ignores the range.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { HubClient, ModelHubError } from "../../../adapter/models/index.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let url: string;
let handler: Handler = (_request, response) => void response.writeHead(404).end();

before(async () => {
  server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failure(promise: Promise<unknown>): Promise<ModelHubError> {
  const error = await promise.then(
    () => assert.fail("it succeeded"),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ModelHubError, String(error));
  return error;
}

describe("HubClient", () => {
  it("takes a bare 401 as a token problem, naming HF_TOKEN whether one was sent or not", async () => {
    handler = (_request, response) => void response.writeHead(401).end();

    const without = await failure(
      new HubClient({ endpoint: url }).fileMetadata("a/b", "c".repeat(40), "x.gguf"),
    );
    const rejected = await failure(
      new HubClient({ endpoint: url, token: "hf_x" }).fileMetadata("a/b", "c".repeat(40), "x.gguf"),
    );

    assert.equal(without.reason, "unauthorized");
    assert.match(without.message, /needs an access token .*set HF_TOKEN/);
    assert.equal(rejected.reason, "unauthorized");
    assert.match(rejected.message, /refused the token of HF_TOKEN/);
  });

  it("reports another error status as http, with the server's X-Error-Message", async () => {
    handler = (_request, response) => void response.writeHead(500, { "x-error-message": "boom" }).end();

    const error = await failure(new HubClient({ endpoint: url }).revisionInfo("a/b", "main"));

    assert.equal(error.reason, "http");
    assert.equal(error.status, 500);
    assert.match(error.message, /boom/);
  });

  it("refuses a revision answer without a commit sha: nothing could be pinned", async () => {
    handler = (_request, response) =>
      void response.writeHead(200, { "content-type": "application/json" }).end("{}");

    const error = await failure(new HubClient({ endpoint: url }).revisionInfo("a/b", "main"));

    assert.equal(error.reason, "protocol");
  });

  it("reads a weak ETag's sha256 and takes the resolve URL itself when a mirror serves the file directly", async () => {
    const sha256 = "ab".repeat(32);
    handler = (_request, response) =>
      void response.writeHead(200, { etag: `W/"${sha256}"`, "content-length": "1234" }).end();

    const metadata = await new HubClient({ endpoint: `${url}/` }).fileMetadata(
      "a/b",
      "c".repeat(40),
      "d/x.gguf",
    );

    assert.deepEqual(metadata, {
      commit: undefined,
      sha256,
      size: 1234,
      downloadUrl: `${url}/a/b/resolve/${"c".repeat(40)}/d/x.gguf`,
    });
  });

  it("starts from byte 0 when the server ignores the range", async () => {
    handler = (_request, response) => void response.writeHead(200, { "content-length": "4" }).end("GGUF");

    const download = await new HubClient({ endpoint: url }).download(`${url}/blob`, 2);

    assert.equal(download.start, 0);
    await download.body.cancel();
  });

  it("refuses an endpoint that is not an http URL", () => {
    assert.throws(
      () => new HubClient({ endpoint: "ftp://mirror.example" }),
      (error: unknown) => error instanceof ModelHubError && error.reason === "bad-reference",
    );
  });
});
