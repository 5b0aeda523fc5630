import type { Lane } from "../../../contract/lanes/lanes.js";
import type { InvocationSummary } from "../answerInvocation.js";
import { ROUTES } from "../constants.js";
import type { Logger } from "../logger.js";
import type { InvocationKind } from "../types.js";

/** Fields of one request's log line, filled in as the request is answered. */
export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  kind?: InvocationKind;
  /** The lane the request named (invocations only; see `laneOfRequest`). */
  lane?: Lane;
  error?: string;
  retryable?: boolean;
  summary?: InvocationSummary;
  /** Refused at admission (at capacity): counted by the server's `RefusalLog`, not logged one by one. */
  refused?: boolean;
}

/**
 * Writes a request's `request` line: its record with the summary's counters inline, at `warn` for a
 * 5xx, `debug` for a successful `/ping` (health checks come every few seconds), else `info`.
 */
export function logRequest(logger: Logger, record: RequestRecord): void {
  const { summary, refused: _refused, ...rest } = record;
  // Health checks come every few seconds: successful ones are logged at debug level only.
  const level =
    record.status >= 500 ? "warn" : record.path === ROUTES.ping && record.status === 200 ? "debug" : "info";
  logger.log(level, "request", { ...rest, ...summary });
}
