/**
 * Whether JavaScript orders `key` before the other keys of an object whatever its written place:
 * an array index, the canonical decimal form of an integer from 0 to 2³² − 2 (`"0"`, `"17"`, not
 * `"01"`, `"-1"` or `"4294967295"`). `JSON.parse` builds objects, so a map of such labels loses the
 * order it was written in.
 *
 * @example isIntegerLikeKey("1") === true; isIntegerLikeKey("01") === false
 */
export function isIntegerLikeKey(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}
