/**
 * The API's JSON shapes as the page reads them: the server's own types (`contract/outcome/reviewViews.ts`),
 * imported as types only, so the bundle takes no code from them.
 */
export type { ItemView, PolicyStats, QueueItem, QueuePage } from "../../contract/outcome/reviewViews.js";
