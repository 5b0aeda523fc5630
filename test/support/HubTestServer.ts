/**
 * A loopback server that answers as the Hugging Face Hub's HTTP protocol does, for the pull tests
 * (and a person trying `decisions models pull` by hand: `HF_ENDPOINT=<url>`):
 * - `GET /api/models/<owner>/<name>/revision/<rev>`: the commit `sha`, `siblings` (with sizes and
 *   LFS sha256), `cardData.license`, `tags`, `gated`;
 * - `HEAD|GET /<owner>/<name>/resolve/<rev>/<file>`: a 302 to a second server (the storage, another
 *   origin) with `X-Repo-Commit`, `X-Linked-Etag` (the sha256), `X-Linked-Size`;
 * - the storage serves the bytes with `Range` (206, `Content-Range`; 416 past the end);
 * - errors as the hub gives them: 401 `RepoNotFound` for an unknown repository, 404
 *   `RevisionNotFound` / `EntryNotFound`, 401 `GatedRepo` without a token and 403 with a token not
 *   granted, 429 with `Retry-After` when told to.
 * Faults a test asks for: cut a download after some bytes (the socket is destroyed), serve other
 * bytes than stated (tampered). Everything listens on 127.0.0.1.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One file of a commit. */
export interface HubTestFile {
  bytes: Buffer;
  /** Serve these bytes instead, while stating the sha256 of `bytes` (a tampered mirror). */
  servedBytes?: Buffer;
}

/** A repository of the test hub. */
export interface HubTestRepo {
  /** Branches and tags → commit sha. */
  refs: Record<string, string>;
  /** Commit sha → its files by path. */
  commits: Record<string, Record<string, HubTestFile>>;
  /** Card license. Default none. */
  license?: string;
  /** Tags of the repository (`license:…` among them, say). Default none. */
  tags?: string[];
  /** Only the tokens listed may download its files. Default: not gated. */
  gatedTokens?: string[];
}

/** A request the servers received. */
export interface HubTestRequest {
  server: "hub" | "storage";
  method: string;
  path: string;
  range: string | undefined;
  authorization: string | undefined;
}

/** A running test hub. */
export interface HubTestServer {
  /** The hub's base URL (what `HF_ENDPOINT` names). */
  url: string;
  /** The storage's base URL (another port: another origin). */
  storageUrl: string;
  /** Requests of both servers, in order. */
  requests: HubTestRequest[];
  /** Adds (or replaces) a repository. */
  addRepo(name: string, repo: HubTestRepo): void;
  /** Renames a repository as the hub does: the old name answers with a relative redirect to the new. */
  renameRepo(from: string, to: string): void;
  /**
   * Cuts each of the next `count` downloads after `bytes` bytes of its body: those are sent, then
   * the download waits until {@link HubTestServer.dropHeld} closes its connection (a test calls it
   * once its client has received them, so what arrived does not depend on timing).
   */
  cutDownloads(bytes: number, count?: number): void;
  /** Closes the connections of the downloads held after their cut (FIN before Content-Length bytes). */
  dropHeld(): void;
  /** Answers the next `count` hub requests 429 with `Retry-After: <seconds>`. */
  rateLimit(count: number, retryAfterSeconds: number): void;
  close(): Promise<void>;
}

/** A random commit sha (40 hex). */
export function randomCommit(): string {
  return randomBytes(20).toString("hex");
}

/** Starts the hub and its storage on 127.0.0.1, on free ports. */
export async function startHubTestServer(): Promise<HubTestServer> {
  const repos = new Map<string, HubTestRepo>();
  const renamed = new Map<string, string>();
  const blobs = new Map<string, Buffer>();
  const requests: HubTestRequest[] = [];
  const cuts: number[] = [];
  const held = new Set<ServerResponse>();
  let limited = { count: 0, seconds: 0 };

  const record = (server: HubTestRequest["server"], request: IncomingMessage): void => {
    requests.push({
      server,
      method: request.method ?? "",
      path: request.url ?? "",
      range: request.headers.range,
      authorization: request.headers.authorization,
    });
  };

  const storage = createServer((request, response) => {
    record("storage", request);
    const match = /^\/blobs\/([0-9a-f]+)$/.exec(new URL(request.url ?? "/", "http://x").pathname);
    const bytes = match?.[1] === undefined ? undefined : blobs.get(match[1]);
    if (bytes === undefined) return void response.writeHead(404).end();
    serveBytes(request, response, bytes, cuts.length > 0 ? cuts.shift() : undefined, held);
  });

  const hub = createServer((request, response) => {
    record("hub", request);
    if (limited.count > 0) {
      limited.count -= 1;
      return void response.writeHead(429, { "retry-after": String(limited.seconds) }).end("slow down");
    }
    const url = new URL(request.url ?? "/", "http://x");
    const path = url.pathname.split("/").map(decodeURIComponent);
    const isApi = path[1] === "api" && path[2] === "models";
    const newName = renamed.get(isApi ? `${path[3]}/${path[4]}` : `${path[1]}/${path[2]}`);
    if (newName !== undefined) {
      // The hub's answer for a renamed repository: a relative redirect, without the file's headers.
      const old = isApi ? `/api/models/${path[3]}/${path[4]}/` : `/${path[1]}/${path[2]}/`;
      const target = isApi ? `/api/models/${newName}/` : `/${newName}/`;
      response.writeHead(307, { location: `${target}${url.pathname.slice(old.length)}${url.search}` }).end();
      return;
    }
    // ["", "api", "models", owner, name, "revision", rev]
    if (path[1] === "api" && path[2] === "models" && path[5] === "revision" && path.length === 7) {
      answerRevision(response, `${path[3]}/${path[4]}`, path[6] ?? "");
      return;
    }
    // ["", owner, name, "resolve", rev, ...file]
    if (path[3] === "resolve" && path.length >= 6) {
      answerResolve(request, response, `${path[1]}/${path[2]}`, path[4] ?? "", path.slice(5).join("/"));
      return;
    }
    response.writeHead(404).end();
  });

  function answerRevision(response: ServerResponse, name: string, revision: string): void {
    const repo = repos.get(name);
    if (repo === undefined) {
      fail(response, 401, "RepoNotFound", "Repository not found");
      return;
    }
    const commit = commitOf(repo, revision);
    const files = commit === undefined ? undefined : repo.commits[commit];
    if (commit === undefined || files === undefined) {
      fail(response, 404, "RevisionNotFound", `Invalid rev id: ${revision}`);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: name,
        sha: commit,
        gated: repo.gatedTokens === undefined ? false : "manual",
        tags: repo.tags ?? [],
        ...(repo.license === undefined ? {} : { cardData: { license: repo.license } }),
        siblings: Object.entries(files).map(([rfilename, file]) => ({
          rfilename,
          size: file.bytes.length,
          lfs: { sha256: sha256(file.bytes), size: file.bytes.length, pointerSize: 134 },
        })),
      }),
    );
  }

  function answerResolve(
    request: IncomingMessage,
    response: ServerResponse,
    name: string,
    revision: string,
    path: string,
  ): void {
    const repo = repos.get(name);
    if (repo === undefined) {
      fail(response, 401, "RepoNotFound", "Repository not found");
      return;
    }
    if (repo.gatedTokens !== undefined) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (token === undefined) {
        fail(response, 401, "GatedRepo", `Access to model ${name} is restricted.`);
        return;
      }
      if (!repo.gatedTokens.includes(token)) {
        fail(
          response,
          403,
          "GatedRepo",
          `Access to model ${name} is restricted and you are not in the authorized list.`,
        );
        return;
      }
    }
    const commit = commitOf(repo, revision);
    const files = commit === undefined ? undefined : repo.commits[commit];
    if (commit === undefined || files === undefined) {
      fail(response, 404, "RevisionNotFound", "Invalid rev id");
      return;
    }
    const file = files[path];
    if (file === undefined) {
      fail(response, 404, "EntryNotFound", `${path} does not exist on "${revision}"`);
      return;
    }
    const stated = sha256(file.bytes);
    const served = file.servedBytes ?? file.bytes;
    const key = sha256(Buffer.concat([Buffer.from(stated), served]));
    blobs.set(key, served);
    response
      .writeHead(302, {
        location: `${storageUrl}/blobs/${key}`,
        "x-repo-commit": commit,
        "x-linked-etag": `"${stated}"`,
        "x-linked-size": String(file.bytes.length),
        etag: `"${stated}"`,
      })
      .end();
  }

  await Promise.all([listen(hub), listen(storage)]);
  const url = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
  const storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
  return {
    url,
    storageUrl,
    requests,
    addRepo(name, repo) {
      repos.set(name, repo);
    },
    renameRepo(from, to) {
      renamed.set(from, to);
    },
    cutDownloads(bytes, count = 1) {
      for (let i = 0; i < count; i += 1) cuts.push(bytes);
    },
    dropHeld() {
      for (const response of held) response.socket?.end();
      held.clear();
    },
    rateLimit(count, retryAfterSeconds) {
      limited = { count, seconds: retryAfterSeconds };
    },
    async close() {
      for (const server of [hub, storage]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

function commitOf(repo: HubTestRepo, revision: string): string | undefined {
  if (repo.commits[revision] !== undefined) return revision;
  return repo.refs[revision];
}

function fail(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { "x-error-code": code, "x-error-message": message }).end(message);
}

/**
 * The bytes, honouring `Range: bytes=<from>-`; with `cutAfter`, only that many are sent and the
 * response is held (in `held`) for the test to drop.
 */
function serveBytes(
  request: IncomingMessage,
  response: ServerResponse,
  bytes: Buffer,
  cutAfter: number | undefined,
  held: Set<ServerResponse>,
): void {
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? "");
  const from = range === null ? 0 : Number(range[1]);
  if (from >= bytes.length && range !== null) {
    return void response.writeHead(416, { "content-range": `bytes */${bytes.length}` }).end();
  }
  const body = bytes.subarray(from);
  response.writeHead(range === null ? 200 : 206, {
    "content-length": String(body.length),
    "accept-ranges": "bytes",
    ...(range === null ? {} : { "content-range": `bytes ${from}-${bytes.length - 1}/${bytes.length}` }),
  });
  if (request.method === "HEAD") return void response.end();
  if (cutAfter === undefined) return void response.end(body);
  response.write(body.subarray(0, cutAfter));
  held.add(response);
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
}
