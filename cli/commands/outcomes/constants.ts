/** The defaults and bounds of `decisions outcomes`, shared by its usage text and its sub-commands. */

/** The table the sub-commands read unless --table names another (as the local stack names it). */
export const DEFAULT_TABLE = "outcomes";
/** How many outcomes `list` shows unless --limit says otherwise. */
export const DEFAULT_LIMIT = 20;
/** A range redecide sends more than this many items only with --yes. */
export const CONFIRM_OVER = 10;
/** Seconds a redecide with --diff waits for the new outcomes unless --wait says otherwise. */
export const DIFF_WAIT_SECONDS = 300;
/** Item ids a dry run lists at most. */
export const DRY_RUN_LISTED = 20;
