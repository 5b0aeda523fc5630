/** Code points of the state kept in an outcome's `state_preview`. */
export const STATE_PREVIEW_CHARS = 512;

/** Code points of a reason kept in an outcome. */
export const REASON_CHARS = 1000;

/**
 * Largest outcome item written, in bytes of its JSON (DynamoDB's limit is 400 KB); bigger ones get
 * their distributions cut to the most probable {@link TRUNCATED_DISTRIBUTION_LABELS} labels.
 */
export const MAX_OUTCOME_BYTES = 64 * 1024;

/** Labels kept per distribution when an outcome is cut to {@link MAX_OUTCOME_BYTES}. */
export const TRUNCATED_DISTRIBUTION_LABELS = 16;
