/**
 * The review console: where people decide what the model could not. `api/` holds its operations
 * (independent of the transport: the local server of `decisions up` and the deployed Lambda both
 * route to them), `web/` the page (Preact + htm, bundled by esbuild).
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
  buildConsoleAssets,
  CONSOLE_CONTENT_SECURITY_POLICY,
  type ConsoleAsset,
} from "./buildConsoleAssets.js";
