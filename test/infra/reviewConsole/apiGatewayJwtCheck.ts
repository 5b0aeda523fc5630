import {
  createLocalJWKSet,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
} from "jose";

/** The JWT authorizer's configuration, as the template gives it (`JwtConfiguration`). */
export interface JwtAuthorizerConfig {
  issuer: string;
  audience: readonly string[];
}

/** Why the authorizer refuses a request: API Gateway answers 401 and does not call the function. */
export class TokenRefusedError extends Error {
  override name = "TokenRefusedError";
}

/**
 * What API Gateway's HTTP API JWT authorizer checks before it calls the integration, reproduced
 * with jose from AWS's description ("Control access to HTTP APIs with JWT authorizers"): a bearer
 * token in the identity source (`Authorization`); a key in the issuer's JWKS matching `kid`; RS256;
 * a valid signature; `exp` after now, `nbf` and `iat` (when present) not after now; `iss` equal to
 * the configured issuer; `aud` one of the configured audiences — or, when there is no `aud`,
 * `client_id` one of them; no scopes (the routes ask for none). Then, for payload 2.0, the claims
 * are handed to the function as strings, a list claim as `[a b]`.
 *
 * This is a reproduction, not API Gateway: it shows that the configuration synthesized (issuer,
 * audience) accepts the tokens it should and refuses the others. In AWS, API Gateway does the check
 * against the user pool's JWKS at `<issuer>/.well-known/jwks.json`; here the JWKS is a test key's.
 *
 * @returns The claims as API Gateway would pass them to the function.
 * @throws TokenRefusedError for a request API Gateway would answer 401.
 */
export async function checkLikeApiGateway(
  authorization: string | undefined,
  config: JwtAuthorizerConfig,
  jwks: JSONWebKeySet,
  now: Date = new Date(),
): Promise<Record<string, string>> {
  if (authorization === undefined || authorization.trim() === "")
    throw new TokenRefusedError("no identity source: the Authorization header is missing");
  const token = authorization.replace(/^Bearer\s+/i, "");
  let payload: JWTPayload;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== "RS256") throw new TokenRefusedError(`alg ${String(header.alg)} is not RS256`);
    ({ payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: config.issuer,
      algorithms: ["RS256"],
      currentDate: now,
      clockTolerance: 0,
    }));
  } catch (error) {
    if (error instanceof TokenRefusedError) throw error;
    throw new TokenRefusedError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (typeof payload.iat === "number" && payload.iat > now.getTime() / 1000)
    throw new TokenRefusedError("iat is in the future");
  const audiences = payload.aud === undefined ? [] : [payload.aud].flat();
  const accepted =
    audiences.length > 0
      ? audiences.some((aud) => config.audience.includes(aud))
      : typeof payload.client_id === "string" && config.audience.includes(payload.client_id);
  if (!accepted) throw new TokenRefusedError("neither aud nor client_id is a configured audience");
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [
      name,
      Array.isArray(value) ? `[${value.join(" ")}]` : typeof value === "string" ? value : String(value),
    ]),
  );
}
