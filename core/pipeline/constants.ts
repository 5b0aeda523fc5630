/**
 * Milliseconds kept free at the very end of an invocation: outcome writes of answered groups may
 * run until `remaining − FINISH_MARGIN_MS`, while new groups start only until `remaining −
 * DEADLINE_MARGIN_MS` (the larger, configurable margin).
 */
export const FINISH_MARGIN_MS = 1000;

/** Outcome writes in flight at once per group (and for the batch's rejected records). */
export const OUTCOME_WRITE_CONCURRENCY = 8;
