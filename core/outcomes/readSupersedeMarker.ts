import { SUPERSEDE_REPLACE_REVIEWS_PREFIX } from "../../contract/outcome/outcomeRecordSchemas.js";

/** What a supersede marker (`SUPERSEDE_ATTRIBUTE`'s value) asks for. */
export interface SupersedeMarker {
  /** The `updated_at` of the outcome it may replace, or `SUPERSEDE_ANY` (`*`). */
  version: string;
  /** It may replace an outcome a person reviewed (`replace-reviews:` prefix). */
  replaceReviews: boolean;
}

/**
 * Reads a supersede marker: `<updated_at>`, `*`, or either behind
 * `SUPERSEDE_REPLACE_REVIEWS_PREFIX` (then it may replace a person's review).
 *
 * @example readSupersedeMarker("replace-reviews:*") // { version: "*", replaceReviews: true }
 */
export function readSupersedeMarker(marker: string): SupersedeMarker {
  return marker.startsWith(SUPERSEDE_REPLACE_REVIEWS_PREFIX)
    ? { version: marker.slice(SUPERSEDE_REPLACE_REVIEWS_PREFIX.length), replaceReviews: true }
    : { version: marker, replaceReviews: false };
}

/** The marker's text for `version` (an `updated_at`, or `*`), allowing to replace a review when asked. */
export function supersedeMarkerText(version: string, options: { replaceReviews?: boolean } = {}): string {
  return options.replaceReviews === true ? `${SUPERSEDE_REPLACE_REVIEWS_PREFIX}${version}` : version;
}
