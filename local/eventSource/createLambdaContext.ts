import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";

/** Options of {@link createLambdaContext}. */
export interface LambdaContextOptions {
  functionName: string;
  region: string;
  /** The function's timeout: `getRemainingTimeInMillis()` counts down from it. */
  timeoutMs: number;
  /** Default 1024. */
  memoryLimitInMB?: number;
  /** Default `Date.now`. */
  now?: () => number;
}

/**
 * A context like the one Lambda passes to a Node.js handler: names and ARN of a `$LATEST`
 * function in account 000000000000, a fresh request id, and `getRemainingTimeInMillis()` counting
 * down from the function timeout (never below 0). The deprecated `done`/`fail`/`succeed` throw:
 * async handlers must not call them.
 */
export function createLambdaContext(options: LambdaContextOptions): Context {
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  const unsupported = (): never => {
    throw new Error("context.done/fail/succeed are not supported: return (or throw) from the async handler");
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: options.functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:${options.region}:000000000000:function:${options.functionName}`,
    memoryLimitInMB: String(options.memoryLimitInMB ?? 1024),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: `${new Date(now()).toISOString().slice(0, 10).replaceAll("-", "/")}/[$LATEST]${randomUUID().replaceAll("-", "")}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
