/** Errors of the review console's API; the router maps each class to an HTTP status. */

/** The request is malformed (a bad path, query value or body): 400. */
export class ReviewRequestError extends Error {
  override name = "ReviewRequestError";
  /** Where in the request: `["query", "limit"]`, `["body", "answers", "queue"]`. */
  readonly path: readonly (string | number)[];
  constructor(path: readonly (string | number)[], message: string, options?: ErrorOptions) {
    super(`${path.join(".")}: ${message}`, options);
    this.path = path;
  }
}

/** The caller is not allowed to review (no reviewer identity, or not in the reviewers group): 401/403. */
export class ReviewerNotAllowedError extends Error {
  override name = "ReviewerNotAllowedError";
  /** 401 when no identity came with the request, 403 when it is not a reviewer. */
  readonly status: 401 | 403;
  constructor(status: 401 | 403, message: string) {
    super(message);
    this.status = status;
  }
}

/** No policy of that name is loaded: 404. */
export class UnknownReviewPolicyError extends Error {
  override name = "UnknownReviewPolicyError";
  constructor(
    readonly policy: string,
    known: readonly string[],
  ) {
    super(`no policy "${policy}" is loaded (known: ${known.join(", ") || "none"})`);
  }
}
