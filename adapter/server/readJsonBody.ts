import type { IncomingMessage } from "node:http";
import { type JsonNode, JsonTextError, jsonValueOf, parseJsonText } from "../../contract/wire/index.js";
import {
  BadRequestError,
  ClientDisconnectedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "./errors.js";
import { formatFieldPath } from "./fieldPath.js";
import type { Problem } from "./types.js";

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions {
  /** Largest body accepted, in bytes; checked from `Content-Length` before reading, and while reading. */
  maxBytes: number;
  /** Deepest nesting of arrays/objects accepted. */
  maxDepth: number;
  /** Stops reading (rejecting with the signal's reason) when it aborts, e.g. at the request's deadline. */
  signal?: AbortSignal;
  /**
   * Called with each chunk's size as it arrives, before the chunk is kept (a budget charges it, a
   * pace watch counts it); what it throws ends the read with that error. Default: nothing is called.
   */
  onChunk?: (bytes: number) => void;
}

/** A parsed body: its text, its tree as written, its value, and the repeated keys `JSON.parse` would hide. */
export interface JsonBody {
  /** The body as sent (UTF-8 decoded). */
  text: string;
  /** The body as written: key order and number spelling kept, offsets into `text`. */
  node: JsonNode;
  /** The body as `JSON.parse` gives it. */
  value: unknown;
  /** One problem per repeated object key; the caller reports them with its own validation problems. */
  duplicateKeys: Problem[];
}

/**
 * Whether a `Content-Type` header declares JSON: `application/json`, any letter case, optionally
 * with `charset=utf-8`. Other media types (including `text/plain` and `+json` variants) are not JSON here.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type = "", ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return parameters.every((parameter) => {
    const [name, value = ""] = parameter.split("=").map((part) => part.trim());
    return name !== "charset" || value.replace(/"/g, "") === "utf-8" || value.replace(/"/g, "") === "utf8";
  });
}

/**
 * The declared `Content-Length` of a request, `undefined` when absent (chunked), `NaN` when malformed.
 */
export function declaredLength(request: IncomingMessage): number | undefined {
  const header = request.headers["content-length"];
  if (header === undefined) return undefined;
  return /^\d{1,15}$/.test(header) ? Number(header) : Number.NaN;
}

/**
 * Reads a request body as UTF-8 JSON, within a size limit.
 *
 * @throws UnsupportedMediaTypeError (415) when the body is not declared `application/json`.
 * @throws PayloadTooLargeError (413) when `Content-Length` or the bytes received exceed `maxBytes`;
 *   with a declared length, before a byte is read.
 * @throws BadRequestError (400) for a malformed `Content-Length`, an empty body, bytes that are not
 *   UTF-8, text that is not JSON, or nesting deeper than `maxDepth` (see {@link parseBodyText}).
 * @throws ClientDisconnectedError when the connection fails or closes before the body is complete.
 * @throws the signal's reason when it aborts while reading.
 * @throws what `onChunk` throws.
 */
export async function readJsonBody(
  request: IncomingMessage,
  options: ReadJsonBodyOptions,
): Promise<JsonBody> {
  return parseBodyText(await readBodyText(request, options), options.maxDepth);
}

/**
 * Reads a request body as UTF-8 text, with every check of {@link readJsonBody} but the parse
 * (which the caller runs in its turn, {@link parseBodyText}): media type, size, emptiness, UTF-8.
 *
 * @throws what {@link readJsonBody} throws, except the parse's BadRequestError.
 */
export async function readBodyText(request: IncomingMessage, options: ReadJsonBodyOptions): Promise<string> {
  const contentType = request.headers["content-type"];
  if (!isJsonContentType(contentType)) throw new UnsupportedMediaTypeError(contentType);
  const length = declaredLength(request);
  if (length !== undefined && Number.isNaN(length)) {
    throw new BadRequestError("malformed Content-Length header", [
      { field: "Content-Length", message: "must be a non-negative integer" },
    ]);
  }
  if (length !== undefined && length > options.maxBytes) throw new PayloadTooLargeError(options.maxBytes);
  const bytes = await collect(request, options);
  if (bytes.length === 0) {
    throw new BadRequestError("the request body is empty", [
      { field: "body", message: "must be a JSON object" },
    ]);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new BadRequestError(
      "the request body is not valid UTF-8",
      [{ field: "body", message: "is not valid UTF-8" }],
      {
        cause: error,
      },
    );
  }
}

/**
 * Parses a body's text as strict JSON, keeping it as written ({@link parseJsonText}); repeated
 * keys are collected as problems (at the object holding them) for the caller to report with its
 * other problems.
 * @throws BadRequestError (400) for text that is not JSON or nests deeper than `maxDepth`.
 */
export function parseBodyText(text: string, maxDepth: number): JsonBody {
  const duplicateKeys: Problem[] = [];
  let node: JsonNode;
  try {
    node = parseJsonText(text, {
      maxDepth,
      onDuplicateKey: (error) =>
        duplicateKeys.push({ field: formatFieldPath(error.path), message: error.reason }),
    });
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    if (error.kind === "too-deep") {
      throw new BadRequestError(
        `the request body nests arrays and objects deeper than ${maxDepth} levels`,
        [{ field: formatFieldPath(error.path), message: `nests deeper than ${maxDepth} levels` }],
        { cause: error },
      );
    }
    throw new BadRequestError(
      `the request body is not valid JSON: ${error.message}`,
      [
        {
          field: "body",
          message: `is not valid JSON: ${error.reason} at line ${error.line}, column ${error.column}`,
        },
      ],
      { cause: error },
    );
  }
  return { text, node, value: jsonValueOf(node), duplicateKeys };
}

function collect(request: IncomingMessage, options: ReadJsonBodyOptions): Promise<Buffer> {
  const { maxBytes, signal, onChunk } = options;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = (): void => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("close", onClose);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: unknown): void => {
      cleanup();
      // Stop buffering; the server discards (or closes on) what is left of the body.
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        fail(new PayloadTooLargeError(maxBytes));
        return;
      }
      try {
        onChunk?.(chunk.length);
      } catch (error) {
        // The caller refused the chunk (a budget full, for one): the read ends with its error.
        fail(error);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    // The client went away mid-body (reset, or closed before the end): nobody is left to answer.
    const onError = (error?: unknown): void => fail(new ClientDisconnectedError({ cause: error }));
    const onClose = (): void => fail(new ClientDisconnectedError());
    const onAbort = (): void => fail(signal?.reason);
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Reads and drops what is left of a request body that will not be used, so its keep-alive
 * connection stays usable; past `maxBytes` or `timeoutMs` the connection is closed instead.
 */
export function discardBody(request: IncomingMessage, maxBytes: number, timeoutMs: number): void {
  if (request.complete || request.destroyed) return;
  let discarded = 0;
  const timer = setTimeout(() => request.socket.destroy(), timeoutMs);
  timer.unref();
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > maxBytes) {
      done();
      request.socket.destroy();
    }
  };
  const done = (): void => {
    clearTimeout(timer);
    request.off("data", onData);
  };
  request.on("data", onData);
  request.once("end", done);
  request.once("close", done);
  request.resume();
}
