import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  downloadModel,
  generateModel,
  ModelChecksumMismatchError,
  ModelDownloadError,
} from "../../../adapter/models/index.js";

let folder: string;
let server: Server;
let baseUrl: string;
let served: { path: string; sha256: string; sizeBytes: number };

before(async () => {
  folder = await mkdtemp(join(tmpdir(), "download-model-"));
  served = await generateModel({ kind: "tiny-llama", out: join(folder, "served", "tiny.gguf") });
  server = createServer((request, response) => {
    if (request.url === "/tiny.gguf") {
      response.writeHead(200, { "content-length": String(served.sizeBytes) });
      createReadStream(served.path).pipe(response);
      return;
    }
    if (request.url === "/slow.gguf") {
      // sends a little, then waits: lets a test abort mid-download
      response.writeHead(200);
      response.write(Buffer.alloc(1024));
      return;
    }
    response.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(folder, { recursive: true, force: true });
});

describe("downloadModel", () => {
  it("downloads a file whose sha256 matches and reports progress", async () => {
    // prepare
    const out = join(folder, "ok", "model.gguf");
    const progress: number[] = [];

    // act
    const result = await downloadModel({
      url: `${baseUrl}/tiny.gguf`,
      sha256: served.sha256.toUpperCase(),
      out,
      onProgress: (p) => progress.push(p.bytesReceived),
    });

    // assert
    assert.deepEqual(result, { path: out, sha256: served.sha256, sizeBytes: served.sizeBytes });
    assert.deepEqual(await readFile(out), await readFile(served.path));
    assert.equal(progress.at(-1), served.sizeBytes);
    assert.deepEqual(await readdir(join(folder, "ok")), ["model.gguf"]);
  });

  it("refuses a file whose sha256 differs, leaving the existing file and no temporary file", async () => {
    // prepare
    const out = join(folder, "mismatch", "model.gguf");
    await downloadModel({ url: `${baseUrl}/tiny.gguf`, sha256: served.sha256, out });
    await writeFile(out, "previous model");
    const wrong = "0".repeat(64);

    // act / assert
    await assert.rejects(
      downloadModel({ url: `${baseUrl}/tiny.gguf`, sha256: wrong, out }),
      (error: unknown) =>
        error instanceof ModelChecksumMismatchError &&
        error.message.includes(served.sha256) &&
        error.message.includes(wrong),
    );
    assert.equal(await readFile(out, "utf8"), "previous model");
    assert.deepEqual(await readdir(join(folder, "mismatch")), ["model.gguf"]);
  });

  it("reports an HTTP error status as a download error and writes nothing", async () => {
    const out = join(folder, "missing", "model.gguf");

    await assert.rejects(
      downloadModel({ url: `${baseUrl}/nope.gguf`, sha256: served.sha256, out }),
      (error: unknown) => error instanceof ModelDownloadError && error.message.includes("HTTP 404"),
    );
    await assert.rejects(stat(out), { code: "ENOENT" });
    assert.deepEqual(await readdir(join(folder, "missing")), []);
  });

  it("stops when aborted and removes the partial file", async () => {
    const out = join(folder, "aborted", "model.gguf");
    const controller = new AbortController();

    const download = downloadModel({
      url: `${baseUrl}/slow.gguf`,
      sha256: served.sha256,
      out,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error("stopped by test")),
    });

    await assert.rejects(download, /stopped by test/);
    assert.deepEqual(await readdir(join(folder, "aborted")), []);
  });

  it("rejects a non-http URL and a malformed checksum", async () => {
    const out = join(folder, "bad", "model.gguf");

    await assert.rejects(
      downloadModel({ url: "file:///etc/passwd", sha256: served.sha256, out }),
      ModelDownloadError,
    );
    await assert.rejects(
      downloadModel({ url: `${baseUrl}/tiny.gguf`, sha256: "abc", out }),
      ModelDownloadError,
    );
  });
});
