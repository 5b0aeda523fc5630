/**
 * The review console's API function: `api/` holds its operations (independent of the transport:
 * the local server of `decisions up` and the deployed Lambda both route to them), `handler.ts` the
 * Lambda entry behind API Gateway's HTTP API. The page that calls it is `console/web`.
 */

export { ReviewerNotAllowedError, ReviewRequestError, UnknownReviewPolicyError } from "./api/errors.js";
export {
  type ItemView,
  type QueueItem,
  type QueuePage,
  ReviewApi,
  type ReviewApiOptions,
  type StateArchive,
} from "./api/ReviewApi.js";
export { REVIEWERS_GROUP, type Reviewer, reviewerFromClaims } from "./api/reviewerOf.js";
export {
  type ReviewHttpRequest,
  type ReviewHttpResponse,
  routeReviewRequest,
} from "./api/routeReviewRequest.js";
export {
  createReviewConsoleHandler,
  type ReviewConsoleEvent,
  type ReviewConsoleHandlerOptions,
} from "./createReviewConsoleHandler.js";
export { type ReviewConsoleConfig, readReviewConsoleConfig } from "./readReviewConsoleConfig.js";
