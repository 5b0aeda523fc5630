/**
 * The review console's API function: `api/` holds its operations (independent of the transport:
 * the local server of `decisions up` and the deployed Lambda both route to them), `handler.ts` the
 * Lambda entry behind API Gateway's HTTP API. The page that calls it is `console/web`.
 */

export type { ItemView, PolicyStats, QueueItem, QueuePage } from "../../contract/outcome/reviewViews.js";
export {
  ReviewerNotAllowedError,
  ReviewRequestError,
  UnknownReviewPolicyError,
} from "../../core/review/errors.js";
export { ReviewApi, type ReviewApiOptions, type StateArchive } from "../../core/review/ReviewApi.js";
export { REVIEWERS_GROUP, type Reviewer, reviewerFromClaims } from "../../core/review/reviewerOf.js";
export {
  type ReviewHttpRequest,
  type ReviewHttpResponse,
  routeReviewRequest,
} from "../../core/review/routeReviewRequest.js";
export {
  createReviewConsoleHandler,
  type ReviewConsoleEvent,
  type ReviewConsoleHandlerOptions,
} from "./createReviewConsoleHandler.js";
export { type ReviewConsoleConfig, readReviewConsoleConfig } from "./readReviewConsoleConfig.js";
