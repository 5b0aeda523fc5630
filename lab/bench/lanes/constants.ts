/** The lanes bench's fixed settings: where jobs are put and kept, how long and how often it waits. */

/** Where the bench puts a bulk job's object: the prefix ingest watches. */
export const KEY_PREFIX = "incoming/";

/** The local stack's jobs table. */
export const JOBS_TABLE = "jobs";

/** How long a wait goes on without progress before it gives up (`stallMs`). */
export const DEFAULT_STALL_MS = 600_000;

/** Between two reads of a job's counts or of the interactive items' outcomes. */
export const POLL_MS = 250;
