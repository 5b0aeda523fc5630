import { buildApp } from "fauxqs";
import { PartStartError, PortInUseError } from "./errors.js";

const PART = "fauxqs (SQS and S3)";
const HOST = "127.0.0.1";

/** Options of {@link startFauxqs}. */
export interface StartFauxqsOptions {
  /** Port on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /** The region of the queues it creates (queue ARNs carry it). Default `"us-east-1"`. */
  region?: string;
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
