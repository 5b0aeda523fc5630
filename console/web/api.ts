/** The browser side of the review console's API: one fetch wrapper that adds who is asking. */

/** The console's settings, from `config.json` beside the page (locally `{"api": ""}`). */
export interface ConsoleConfig {
  /** Base URL of the API (empty: same origin). */
  api: string;
  /** Deployed: the Cognito hosted UI to sign in with (authorization code with PKCE). */
  auth?: { domain: string; clientId: string; redirectUri: string; scopes?: string[] };
}

/** An API answer that was not 2xx, with its JSON body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; current?: unknown } & Record<string, unknown>,
  ) {
    super(body.error ?? `HTTP ${status}`);
  }
}

const NAME_KEY = "review-console.reviewer";
const TOKEN_KEY = "review-console.id-token";

/** The reviewer name typed into the local console (kept in this browser only). */
export function localReviewer(): string {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export function setLocalReviewer(name: string): void {
  localStorage.setItem(NAME_KEY, name);
}

let config: ConsoleConfig = { api: "" };

/** Reads `config.json` (the local console serves `{"api": ""}`) and, deployed, completes or starts the sign-in. */
export async function loadConfig(): Promise<ConsoleConfig> {
  const answer = await fetch("./config.json", { cache: "no-store" });
  if (answer.ok) config = (await answer.json()) as ConsoleConfig;
  if (config.auth !== undefined) await ensureSignedIn(config.auth);
  return config;
}

/**
 * The API path of an item (`/api/items/<policy>/<id>`, then `suffix`). A URL parser removes a path
 * segment `.` or `..` (spelt with `%2E` too) before the request leaves the browser, so such an id
 * goes base64url-encoded, marked `id_encoding=base64url`; every other id goes percent-encoded.
 */
export function itemApiPath(policy: string, id: string, suffix = ""): string {
  const path = `/api/items/${encodeURIComponent(policy)}/`;
  if (id !== "." && id !== "..") return `${path}${encodeURIComponent(id)}${suffix}`;
  const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(id)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return `${path}${base64}${suffix}?id_encoding=base64url`;
}

/** GET or POST a JSON route of the API. @throws ApiError */
export async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (config.auth !== undefined && token !== null) headers.authorization = `Bearer ${token}`;
  // Locally there is no sign-in: the name comes from the page. Deployed, the API ignores it.
  if (config.auth === undefined && localReviewer() !== "") headers["x-reviewer"] = localReviewer();
  const answer = await fetch(`${config.api}${path}`, {
    method: init.method ?? "GET",
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
  if (!answer.ok) throw new ApiError(answer.status, body);
  return body as T;
}

async function ensureSignedIn(auth: NonNullable<ConsoleConfig["auth"]>): Promise<void> {
  const params = new URLSearchParams(location.search);
  const code = params.get("code");
  if (code !== null) {
    const verifier = sessionStorage.getItem("review-console.verifier") ?? "";
    const answer = await fetch(`https://${auth.domain}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: auth.clientId,
        code,
        redirect_uri: auth.redirectUri,
        code_verifier: verifier,
      }),
    });
    if (!answer.ok) throw new Error(`sign-in failed: HTTP ${answer.status}`);
    const tokens = (await answer.json()) as { id_token: string };
    sessionStorage.setItem(TOKEN_KEY, tokens.id_token);
    history.replaceState(null, "", auth.redirectUri);
    return;
  }
  if (sessionStorage.getItem(TOKEN_KEY) !== null) return;
  const verifier = randomText(64);
  sessionStorage.setItem("review-console.verifier", verifier);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const challenge = btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  const url = new URL(`https://${auth.domain}/oauth2/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: auth.clientId,
    redirect_uri: auth.redirectUri,
    scope: (auth.scopes ?? ["openid", "email"]).join(" "),
    code_challenge_method: "S256",
    code_challenge: challenge,
  }).toString();
  location.assign(url.toString());
  await new Promise(() => undefined);
}

function randomText(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(
    bytes,
    (byte) => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"[byte % 66],
  ).join("");
}
