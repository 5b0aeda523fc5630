import { ReviewerNotAllowedError } from "./errors.js";

/** Who is reviewing, as the transport established it. */
export interface Reviewer {
  /** The name recorded in the outcome's review history. */
  name: string;
  /** Where the name came from: a verified token's claims, or the local console's own field. */
  source: "token" | "local";
}

/** The group a Cognito user must be in to review (`cognito:groups` claim). */
export const REVIEWERS_GROUP = "reviewers";

/**
 * The reviewer of a deployed console's request, from the claims API Gateway's JWT authorizer has
 * already verified (signature, issuer, audience, expiry). The identity comes only from the token,
 * never from the request body. The authorizer passes `cognito:groups` as a string such as
 * `[reviewers admins]`, or as an array when the claims are read directly.
 *
 * @throws ReviewerNotAllowedError 401 without claims, 403 when not in {@link REVIEWERS_GROUP}.
 */
export function reviewerFromClaims(claims: Readonly<Record<string, unknown>> | undefined): Reviewer {
  if (claims === undefined)
    throw new ReviewerNotAllowedError(401, "sign in first: the request carries no token");
  const groups = claims["cognito:groups"];
  const list = Array.isArray(groups)
    ? groups.map(String)
    : typeof groups === "string"
      ? groups
          .replace(/^\[|\]$/g, "")
          .split(/[\s,]+/)
          .filter(Boolean)
      : [];
  if (!list.includes(REVIEWERS_GROUP))
    throw new ReviewerNotAllowedError(403, `only members of the "${REVIEWERS_GROUP}" group may review`);
  const name = [claims.email, claims["cognito:username"], claims.username, claims.sub].find(
    (value): value is string => typeof value === "string" && value.length > 0,
  );
  if (name === undefined) throw new ReviewerNotAllowedError(401, "the token names no user");
  return { name, source: "token" };
}
