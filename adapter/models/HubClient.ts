/**
 * The few requests of the Hugging Face Hub's HTTP protocol a pull needs, on Node's own `fetch`.
 *
 * Why not a client library: node-llama-cpp 3.21.1 reads `hf:` URIs (`createModelDownloader`, on
 * ipull), but it downloads a branch's file as it is now, without resolving the revision to a commit
 * sha, without checking the bytes against the sha256 the hub states (`X-Linked-Etag`) and without
 * telling a missing file, a missing revision or a gated repository apart. The official JavaScript
 * client (`@huggingface/hub`) is not a dependency of this project: adding it would bring the whole
 * hub API for three requests, and the resumable `.part`, the sha256 check and the messages would
 * still be this project's code. The protocol is small and documented — one JSON call and one `HEAD`
 * per file, then a plain (ranged) `GET` — so it is spoken here, against any server that follows it
 * (the hub, a mirror named by `HF_ENDPOINT`, the tests' loopback server).
 */
import { setTimeout as sleepFor } from "node:timers/promises";
import { ModelHubError } from "./errors.js";

/** The hub's address when `HF_ENDPOINT` names none. */
export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co";

/** Options of {@link HubClient}. */
export interface HubClientOptions {
  /** Base URL of the hub or a mirror (`HF_ENDPOINT`). Default {@link DEFAULT_HUB_ENDPOINT}. */
  endpoint?: string | undefined;
  /** Access token (`HF_TOKEN`), sent as a bearer token to the endpoint only. Default none. */
  token?: string | undefined;
  /** Tries of a request the hub answers 429 or 503 (waiting `Retry-After` between). Default 5. */
  attempts?: number;
  /** Longest wait the hub may ask for before a retry; a longer one ends the pull. Default 60 s. */
  maxWaitMs?: number;
  /** Told of each wait before a retry. Default: none. */
  onWait?: (wait: { status: number; waitMs: number; attempt: number }) => void;
  /** Waits between retries (tests pass their own). Default `timers/promises` setTimeout. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** One file of a revision, as the revision's API answer lists it. */
export interface HubSibling {
  /** Path in the repository. */
  name: string;
  /** Size in bytes, when the answer states it. */
  size: number | undefined;
  /** SHA-256 of an LFS file, when the answer states it. */
  sha256: string | undefined;
}

/** What `/api/models/<repo>/revision/<rev>` says of a revision. */
export interface HubRevisionInfo {
  /** The commit sha the revision resolves to (40 hex). */
  commit: string;
  siblings: HubSibling[];
  /** The license the repository states (card `license`, else a `license:` tag), or null. */
  license: string | null;
  /** Whether the repository is gated (its files need an account that accepted its conditions). */
  gated: boolean;
}

/** What the `HEAD` of a file's resolve URL says. */
export interface HubFileMetadata {
  /** `X-Repo-Commit`, when sent. */
  commit: string | undefined;
  /** The file's sha256 from `X-Linked-Etag` (else `ETag`), when it is one (64 hex). */
  sha256: string | undefined;
  /** `X-Linked-Size`, else `Content-Length`. */
  size: number | undefined;
  /** Where the bytes are: the redirect's target, or the resolve URL itself when not redirected. */
  downloadUrl: string;
}

/** An open download of a file's bytes from `start` on. */
export interface HubDownload {
  /** The first byte the body holds: `from` when the server honoured the range, 0 when it sent all. */
  start: number;
  body: ReadableStream<Uint8Array>;
}

const MAX_REDIRECTS = 5;

/**
 * Speaks the hub's HTTP protocol: a revision's commit and files, a file's sha256, size and download
 * URL, and its bytes from an offset. Errors are {@link ModelHubError}s whose `reason` comes from the
 * answer's status and `X-Error-Code` (RepoNotFound, RevisionNotFound, EntryNotFound, GatedRepo).
 */
export class HubClient {
  /** The base URL, without a trailing `/`. */
  readonly endpoint: string;
  readonly #token: string | undefined;
  readonly #origin: string;
  readonly #attempts: number;
  readonly #maxWaitMs: number;
  readonly #onWait: HubClientOptions["onWait"];
  readonly #sleep: NonNullable<HubClientOptions["sleep"]>;

  /** @throws {ModelHubError} (`bad-reference`) when the endpoint is not an http(s) URL. */
  constructor(options: HubClientOptions = {}) {
    const endpoint = (options.endpoint ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, "");
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch (error) {
      throw new ModelHubError(`HF_ENDPOINT "${endpoint}" is not a URL`, "bad-reference", { cause: error });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ModelHubError(`HF_ENDPOINT "${endpoint}" is not an http or https URL`, "bad-reference");
    }
    this.endpoint = endpoint;
    this.#origin = url.origin;
    this.#token = options.token === undefined || options.token === "" ? undefined : options.token;
    this.#attempts = options.attempts ?? 5;
    this.#maxWaitMs = options.maxWaitMs ?? 60_000;
    this.#onWait = options.onWait;
    this.#sleep = options.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal }));
  }

  /** Whether a token is sent. */
  get hasToken(): boolean {
    return this.#token !== undefined;
  }

  /** The repository's page (where a gated repository's conditions are accepted). */
  repoUrl(repo: string): string {
    return `${this.endpoint}/${repoPath(repo)}`;
  }

  /**
   * Resolves a revision: `GET /api/models/<repo>/revision/<rev>?blobs=true`.
   * @throws {ModelHubError} `repo-not-found`, `revision-not-found`, `gated`, `unauthorized`,
   *   `rate-limited`, `http`, `network`, or `protocol` when the answer has no commit sha.
   */
  async revisionInfo(repo: string, revision: string, signal?: AbortSignal): Promise<HubRevisionInfo> {
    const url = `${this.endpoint}/api/models/${repoPath(repo)}/revision/${encodeURIComponent(revision)}?blobs=true`;
    const response = await this.#request(url, { method: "GET", signal }, { repo, revision });
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new ModelHubError(`${url} did not answer JSON`, "protocol", { cause: error });
    }
    return parseRevisionInfo(body, url);
  }

  /**
   * Reads a file's metadata: `HEAD /<repo>/resolve/<commit>/<file>`, following the hub's relative
   * redirects (a renamed repository) and stopping at the first absolute one (the storage holding the
   * bytes), whose `Location` is where the file is downloaded from.
   * @throws {ModelHubError} `file-not-found`, `gated`, `unauthorized`, `repo-not-found`,
   *   `revision-not-found`, `rate-limited`, `http` or `network`.
   */
  async fileMetadata(
    repo: string,
    commit: string,
    file: string,
    signal?: AbortSignal,
  ): Promise<HubFileMetadata> {
    let url = `${this.endpoint}/${repoPath(repo)}/resolve/${encodeURIComponent(commit)}/${filePath(file)}`;
    for (let redirects = 0; ; redirects += 1) {
      const response = await this.#request(
        url,
        // identity: the sizes in the headers are those of the bytes, not of a compressed answer.
        { method: "HEAD", redirect: "manual", headers: { "accept-encoding": "identity" }, signal },
        { repo, revision: commit, file },
      );
      const location = response.headers.get("location");
      const isRedirect = response.status >= 300 && response.status < 400 && location !== null;
      if (isRedirect && redirects < MAX_REDIRECTS && isRelative(location) && !hasFileHeaders(response)) {
        url = new URL(location, url).href;
        continue;
      }
      return {
        commit: response.headers.get("x-repo-commit") ?? undefined,
        sha256: sha256Of(response.headers.get("x-linked-etag") ?? response.headers.get("etag")),
        size: sizeOf(response.headers.get("x-linked-size") ?? response.headers.get("content-length")),
        downloadUrl: isRedirect ? new URL(location, url).href : url,
      };
    }
  }

  /**
   * Opens the file's bytes from `from` on (`Range: bytes=<from>-` when `from` > 0). The token goes
   * only to the hub's own origin, never to the storage a redirect points at.
   * @throws {ModelHubError} as {@link fileMetadata}, or `http` for a range the server cannot serve.
   */
  async download(downloadUrl: string, from: number, signal?: AbortSignal): Promise<HubDownload> {
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    if (from > 0) headers.range = `bytes=${from}-`;
    const response = await this.#request(downloadUrl, { method: "GET", headers, signal }, {});
    if (response.body === null) {
      throw new ModelHubError(`${downloadUrl} answered ${response.status} without a body`, "protocol");
    }
    if (response.status === 206) {
      const match = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(response.headers.get("content-range") ?? "");
      const start = match === null ? Number.NaN : Number(match[1]);
      if (start !== from) {
        await response.body.cancel();
        throw new ModelHubError(
          `${downloadUrl} answered the range from byte ${from} with ${response.headers.get("content-range") ?? "no Content-Range"}`,
          "protocol",
          { status: 206 },
        );
      }
      return { start, body: response.body };
    }
    return { start: 0, body: response.body };
  }

  /**
   * One request, retried while the hub answers 429 or 503 (waiting `Retry-After`, at most
   * `maxWaitMs`); any other status of 400 or more becomes a {@link ModelHubError}.
   */
  async #request(
    url: string,
    init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> },
    context: ErrorContext,
  ): Promise<Response> {
    const sameOrigin = new URL(url).origin === this.#origin;
    const headers: Record<string, string> = {
      "user-agent": "decisions-models-pull",
      ...init.headers,
      ...(sameOrigin && this.#token !== undefined ? { authorization: `Bearer ${this.#token}` } : {}),
    };
    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(url, { redirect: "follow", ...init, headers });
      } catch (error) {
        if (init.signal?.aborted) throw init.signal.reason;
        throw new ModelHubError(
          `cannot reach ${url}: ${describe(error)}; check the network (and HF_ENDPOINT)`,
          "network",
          { cause: error },
        );
      }
      if (response.status < 400) return response;
      await response.body?.cancel();
      if (response.status === 429 || response.status === 503) {
        const waitMs = retryAfterMs(response.headers.get("retry-after"), attempt);
        if (attempt < this.#attempts && waitMs <= this.#maxWaitMs) {
          this.#onWait?.({ status: response.status, waitMs, attempt });
          await this.#sleep(waitMs, init.signal ?? undefined);
          continue;
        }
        throw new ModelHubError(
          `${url} answered ${response.status} ${response.status === 429 ? "(too many requests)" : "(unavailable)"} ${attempt} times` +
            `${response.headers.get("retry-after") === null ? "" : `, the last asking to wait ${response.headers.get("retry-after")} s`}; ` +
            `try again later${this.hasToken ? "" : " (requests with HF_TOKEN have a higher limit)"}`,
          "rate-limited",
          { status: response.status },
        );
      }
      throw this.#statusError(response, url, context);
    }
  }

  #statusError(response: Response, url: string, context: ErrorContext): ModelHubError {
    const code = response.headers.get("x-error-code");
    const status = response.status;
    const hint = response.headers.get("x-error-message");
    const detail = `(${url} answered ${status}${code === null ? "" : ` ${code}`}${hint === null ? "" : `: ${hint}`})`;
    const { repo = "the repository", revision, file } = context;
    if (code === "GatedRepo") {
      return new ModelHubError(
        this.hasToken
          ? `${repo} is gated and the account of HF_TOKEN has not been granted access: accept its conditions at ${this.repoUrl(repo)} with that account (or use another token) ${detail}`
          : `${repo} is gated: accept its conditions at ${this.repoUrl(repo)}, then set HF_TOKEN to an access token of that account ${detail}`,
        "gated",
        { status },
      );
    }
    if (code === "RevisionNotFound") {
      return new ModelHubError(
        `${repo} has no revision "${revision}": give a branch, a tag or a commit sha of it ${detail}`,
        "revision-not-found",
        { status },
      );
    }
    if (code === "EntryNotFound") {
      return new ModelHubError(`${repo} has no file "${file}" at ${revision} ${detail}`, "file-not-found", {
        status,
      });
    }
    if (code === "RepoNotFound" || (status === 404 && file === undefined && repo !== "the repository")) {
      return new ModelHubError(
        `no repository ${repo} at ${this.endpoint}${this.hasToken ? " that the token of HF_TOKEN can read" : " (a private one needs HF_TOKEN)"}: check its name ${detail}`,
        "repo-not-found",
        { status },
      );
    }
    if (status === 401 || status === 403) {
      return new ModelHubError(
        this.hasToken
          ? `the hub refused the token of HF_TOKEN for ${repo}: check that it is valid and can read the repository ${detail}`
          : `${repo} needs an access token (it is private or gated): set HF_TOKEN ${detail}`,
        "unauthorized",
        { status },
      );
    }
    return new ModelHubError(`the hub answered HTTP ${status} ${response.statusText} ${detail}`, "http", {
      status,
    });
  }
}

/** What an error message names. */
interface ErrorContext {
  repo?: string;
  revision?: string;
  file?: string;
}

function repoPath(repo: string): string {
  return repo.split("/").map(encodeURIComponent).join("/");
}

function filePath(file: string): string {
  return file.split("/").map(encodeURIComponent).join("/");
}

function isRelative(location: string): boolean {
  return location.startsWith("/") && !location.startsWith("//");
}

/** A redirect that already carries the file's metadata is the one to the storage, not a rename. */
function hasFileHeaders(response: Response): boolean {
  return response.headers.has("x-linked-etag") || response.headers.has("x-repo-commit");
}

/** The sha256 an ETag carries (quotes and a weak `W/` removed), when it is one. */
function sha256Of(etag: string | null): string | undefined {
  if (etag === null) return undefined;
  const value = etag.replace(/^W\//, "").replaceAll('"', "").toLowerCase();
  return /^[0-9a-f]{64}$/.test(value) ? value : undefined;
}

function sizeOf(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const size = Number(text);
  return Number.isSafeInteger(size) ? size : undefined;
}

/** `Retry-After` in milliseconds (seconds or an HTTP date); without one, 1, 2, 4 … seconds. */
function retryAfterMs(header: string | null, attempt: number): number {
  if (header !== null) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return 1000 * 2 ** (attempt - 1);
}

function parseRevisionInfo(body: unknown, url: string): HubRevisionInfo {
  const record = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const commit = record.sha;
  if (typeof commit !== "string" || !/^[0-9a-f]{40}$/.test(commit)) {
    throw new ModelHubError(`${url} states no commit sha ("sha"); the revision cannot be pinned`, "protocol");
  }
  const siblings = Array.isArray(record.siblings) ? record.siblings : [];
  return {
    commit,
    siblings: siblings.flatMap((entry: unknown): HubSibling[] => {
      const sibling = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
      if (typeof sibling.rfilename !== "string") return [];
      const lfs = (typeof sibling.lfs === "object" && sibling.lfs !== null ? sibling.lfs : {}) as Record<
        string,
        unknown
      >;
      return [
        {
          name: sibling.rfilename,
          size: typeof sibling.size === "number" ? sibling.size : undefined,
          sha256: typeof lfs.sha256 === "string" ? sha256Of(lfs.sha256) : undefined,
        },
      ];
    }),
    license: licenseOf(record),
    gated: record.gated !== undefined && record.gated !== false,
  };
}

/** The card's `license` (a string, or the first of a list), else the first `license:` tag. */
function licenseOf(record: Record<string, unknown>): string | null {
  const card = (
    typeof record.cardData === "object" && record.cardData !== null ? record.cardData : {}
  ) as Record<string, unknown>;
  const license = Array.isArray(card.license) ? card.license[0] : card.license;
  if (typeof license === "string" && license.length > 0) {
    const name = card.license_name;
    return license === "other" && typeof name === "string" && name.length > 0 ? `other (${name})` : license;
  }
  const tags = Array.isArray(record.tags) ? record.tags : [];
  const tag = tags.find(
    (value): value is string => typeof value === "string" && value.startsWith("license:"),
  );
  return tag === undefined ? null : tag.slice("license:".length);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
