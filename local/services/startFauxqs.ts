import { buildApp } from "fauxqs";
import { PartStartError, PortInUseError } from "../errors.js";
import { type CreatedObject, readObjectCreated } from "../ingest/readObjectCreated.js";

const PART = "fauxqs (SQS and S3)";
const HOST = "127.0.0.1";

/** Options of {@link startFauxqs}. */
export interface StartFauxqsOptions {
  /** Port on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /** The region of the queues it creates (queue ARNs carry it). Default `"us-east-1"`. */
  region?: string;
  /**
   * Called after each request that created an object (PutObject, CopyObject,
   * CompleteMultipartUpload) was answered: what S3 turns into an "Object Created" event. A throw
   * or rejection is the listener's own; it is passed to `onListenerError`. Default: none.
   */
  onObjectCreated?: (object: CreatedObject) => void | Promise<void>;
  /** Receives what `onObjectCreated` threw. Default: nothing (the listener should catch). */
  onListenerError?: (error: unknown) => void;
}

/** A running fauxqs: SQS and S3 on one endpoint. */
export interface Fauxqs {
  /** `http://127.0.0.1:<port>`: the SQS and the S3 endpoint. */
  endpoint: string;
  port: number;
  region: string;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts fauxqs 2 (an SQS, SNS and S3 emulator) in this process, listening on 127.0.0.1 only.
 * fauxqs' own `startFauxqs` always listens on 0.0.0.0 (its `host` option only changes queue
 * URLs), so this builds its app and listens itself. Measured here: ~70 ms.
 *
 * Clients: SQS with `endpoint` and `useQueueUrlAsEndpoint: false` (fauxqs' queue URLs name
 * `sqs.<region>.localhost`, which does not resolve here) or the loopback queue URLs of
 * {@link createWorkQueue}; S3 with `endpoint` and `forcePathStyle: true`.
 *
 * @throws {PortInUseError} when the port is taken; {@link PartStartError} for any other failure.
 */
export async function startFauxqs(options: StartFauxqsOptions = {}): Promise<Fauxqs> {
  const region = options.region ?? "us-east-1";
  const app = buildApp({ logger: false, defaultRegion: region });
  const port = options.port ?? 0;
  const onObjectCreated = options.onObjectCreated;
  if (onObjectCreated !== undefined) {
    // fauxqs has no bucket notifications (its README lists them as unsupported), but it is a
    // Fastify app: a response hook sees every S3 request as it finishes, with the route it took,
    // so an upload is noticed the moment it is stored, without listing the bucket.
    app.addHook("onResponse", async (request, reply) => {
      const created = readObjectCreated({
        method: request.method,
        route: request.routeOptions.url,
        params: (request.params ?? {}) as Record<string, string | undefined>,
        query: (request.query ?? {}) as Record<string, unknown>,
        headers: request.headers,
        statusCode: reply.statusCode,
        eTag: headerText(reply.getHeader("etag")),
      });
      if (created === undefined) return;
      try {
        await onObjectCreated(created);
      } catch (error) {
        options.onListenerError?.(error);
      }
    });
  }
  try {
    await app.listen({ port, host: HOST });
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new PortInUseError(PART, HOST, port, { cause: error });
    }
    throw new PartStartError(PART, `could not listen on ${HOST}:${port}`, "", { cause: error });
  }
  const address = app.server.address();
  if (address === null || typeof address === "string") {
    await app.close();
    throw new PartStartError(PART, "listens on no TCP port");
  }
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= app.close().then(() => undefined);
    return stopping;
  };
  return {
    endpoint: `http://${HOST}:${address.port}`,
    port: address.port,
    region,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  return undefined;
}
