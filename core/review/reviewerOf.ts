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
 * never from the request body. See {@link groupsOf} for how the groups claim is read.
 *
 * @throws ReviewerNotAllowedError 401 without claims, 403 when not in {@link REVIEWERS_GROUP}.
 */
export function reviewerFromClaims(claims: Readonly<Record<string, unknown>> | undefined): Reviewer {
  if (claims === undefined)
    throw new ReviewerNotAllowedError(401, "sign in first: the request carries no token");
  const list = groupsOf(claims["cognito:groups"]);
  if (!list.includes(REVIEWERS_GROUP))
    throw new ReviewerNotAllowedError(403, `only members of the "${REVIEWERS_GROUP}" group may review`);
  const name = [claims.email, claims["cognito:username"], claims.username, claims.sub].find(
    (value): value is string => typeof value === "string" && value.length > 0,
  );
  if (name === undefined) throw new ReviewerNotAllowedError(401, "the token names no user");
  return { name, source: "token" };
}

/**
 * The groups of a `cognito:groups` claim, each name whole. API Gateway's HTTP API JWT authorizer
 * passes every claim as a string and writes a list claim as its items between brackets, separated
 * by spaces (`[reviewers admins]`); read directly, the claim is an array of strings. A Cognito
 * group name has no white space (its pattern is letters, marks, symbols, numbers and
 * punctuation), so splitting the bracketed form on white space is exact — and nothing else splits:
 * a group named `reviewers,admins` is that one group, not the reviewers group. Any other string
 * is one group name.
 */
function groupsOf(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((group): group is string => typeof group === "string");
  if (typeof claim !== "string") return [];
  if (claim.startsWith("[") && claim.endsWith("]"))
    return claim
      .slice(1, -1)
      .split(/\s+/)
      .filter((group) => group !== "");
  return claim === "" ? [] : [claim];
}
