/**
 * The part of autocannon 9's API the load runner uses (the package ships no types). Shapes from
 * its README: options, per-request hooks, the result's histograms and counters.
 */
declare module "autocannon" {
  interface RequestHeaders {
    [name: string]: string;
  }
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: RequestHeaders;
    body?: string | Buffer;
  }
  interface Request extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string | string[]>,
    ) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    method?: string;
    headers?: RequestHeaders;
    requests?: Request[];
    connectionRate?: number;
    excludeErrorStats?: boolean;
  }
  interface Histogram {
    average: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }
  interface Result {
    latency: Histogram;
    requests: Histogram & { total: number; sent: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }
  function autocannon(options: Options): Instance;
  export = autocannon;
}
