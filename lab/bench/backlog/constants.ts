/** The backlog bench's fixed settings: the event source's, the adapter's admission, the alone run's clients. */

/**
 * Items of a run without `--items`: 200 on the generated tiny-qwen3 (`quick`; 7 minutes in all on
 * 2 cores at a load average of 12), 90 on the 0.6B shape, whose decisions take seconds each (1000
 * of them, adapter alone beside, would take hours).
 */
export const DEFAULT_ITEMS = { quick: 200, full: 90 } as const;

/** Records the event source hands one function invocation at most (`batchSize`). */
export const BATCH_SIZE = 10;

/** How long the event source gathers records before it invokes (`maxBatchingWindow`). */
export const BATCHING_WINDOW_MS = 500;

/** Receives of a message before the work queue moves it to its DLQ. */
export const MAX_RECEIVE_COUNT = 5;

/** Clients of the adapter-alone run: its admission (1 running + 8 queued) never refuses them, and the engine always has the next request waiting. */
export const ADAPTER_CLIENTS = 4;

/** What the bench's adapter admits, given to it explicitly (its defaults): one request running, eight waiting. */
export const ADAPTER_ADMISSION = { running: 1, waiting: 8 } as const;

/** `MAX_CONCURRENT_GROUPS` the CDK app is configured with by default; its derivation may lower it. */
export const CONFIGURED_GROUPS = 4;
