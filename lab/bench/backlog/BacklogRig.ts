import type { PolicySet } from "../../../core/policy/index.js";
import type { LocalStack, SqsBatchHandler } from "../../../local/index.js";
import type { EndpointCall } from "./profileEndpointCalls.js";
import type { BacklogBenchSetup } from "./setupBacklogBench.js";

/** The running parts a bench phase drives and measures. */
export interface BacklogRig {
  stack: LocalStack;
  handlers: readonly SqsBatchHandler[];
  /** The processes whose CPU seconds are measured, by part. */
  parts: Record<string, number | undefined>;
  /** The endpoint calls the counting proxy has seen since they were last cleared. */
  calls: EndpointCall[];
  policies: PolicySet;
  setup: BacklogBenchSetup;
  /** Stops the counting proxy, then the local stack. */
  stop(): Promise<void>;
}
