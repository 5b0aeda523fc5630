import type { CacheStats } from "../types.js";

/** {@link CacheStats} as plain JSON: the last state-file error as `{name, message}`. */
export type CacheStatsJson = Omit<CacheStats, "last_state_file_error"> & {
  last_state_file_error: { name: string; message: string } | null;
};

/**
 * The cache counters in a shape `JSON.stringify` keeps whole (an `Error` would serialise as `{}`),
 * e.g. for a health or metrics endpoint.
 */
export function cacheStatsToJson(stats: CacheStats): CacheStatsJson {
  const error = stats.last_state_file_error;
  return {
    ...stats,
    last_state_file_error: error === null ? null : { name: error.name, message: error.message },
  };
}
