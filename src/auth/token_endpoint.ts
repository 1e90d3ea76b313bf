/**
 * Bitbucket's OAuth 2.0 token endpoint (`/rest/oauth2/latest/token`): a code
 * traded for tokens at the end of a sign-in, and a refresh token traded for
 * new ones (Bitbucket may rotate the refresh token; the new one replaces the
 * old). Requests go to the Bitbucket origin only, as forms; the link's secret,
 * when there is one, goes in the form too. No message this module makes
 * carries a token, a code or the secret.
 */
import { restPrefix } from "../bitbucket/transport/base_path.ts";
import type { Session } from "./session.ts";

/** Where Bitbucket's OAuth 2.0 provider answers, under a base URL (with its context path). */
export function oauthEndpoints(baseUrl: URL): { authorize: URL; token: URL } {
  const prefix = `${restPrefix(baseUrl)}/oauth2/latest`;
  return {
    authorize: new URL(`${prefix}/authorize`, baseUrl.origin),
    token: new URL(`${prefix}/token`, baseUrl.origin),
  };
}

/** How an access token's life is counted when Bitbucket's answer gives none: its default, an hour. */
export const DEFAULT_ACCESS_SECONDS = 3600;

/** A sign-in or refresh that did not give tokens: why, in words, and Bitbucket's error code. */
export class SignInError extends Error {
  /** The OAuth error code Bitbucket answered (`invalid_grant`, …), when it answered one. */
  readonly code?: string;
  constructor(message: string, code?: string) {
    super(message);
    this.name = "SignInError";
    this.code = code;
  }
}

/** What the token endpoint is called with. */
export interface TokenEndpointOptions {
  baseUrl: URL;
  clientId: string;
  /** The incoming link's secret, when it is confidential. */
  clientSecret?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** The client certificate's HTTP client, for a Bitbucket behind mutual TLS. */
  httpClient?: Deno.HttpClient;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

/** The tokens of a successful answer, as a session's fields. */
type Granted = Pick<Session, "accessToken" | "refreshToken" | "expiresAt" | "scopes">;

/** Trades the code of a finished authorization for tokens. */
export async function exchangeCode(
  options: TokenEndpointOptions,
  grant: { code: string; verifier: string; redirectUri: string; scopes: string[] },
): Promise<Granted> {
  return await tokenRequest(
    options,
    "the sign-in's code",
    {
      grant_type: "authorization_code",
      code: grant.code,
      code_verifier: grant.verifier,
      redirect_uri: grant.redirectUri,
    },
    grant.scopes,
    [grant.code, grant.verifier],
  );
}

/**
 * Trades the session's refresh token for new tokens: the session as it is
 * now, the new refresh token in place of the old when Bitbucket rotated it.
 */
export async function refreshSession(
  options: TokenEndpointOptions,
  session: Session,
): Promise<Session> {
  if (!session.refreshToken) {
    throw new SignInError("the session has no refresh token: sign in again", "invalid_grant");
  }
  const granted = await tokenRequest(
    options,
    "the refresh token",
    {
      grant_type: "refresh_token",
      refresh_token: session.refreshToken,
      // Bitbucket's provider checks the redirect URL on a refresh too.
      redirect_uri: session.redirectUri,
    },
    session.scopes,
    [session.refreshToken, session.accessToken],
  );
  return { ...session, ...granted, refreshToken: granted.refreshToken ?? session.refreshToken };
}

async function tokenRequest(
  options: TokenEndpointOptions,
  what: string,
  fields: Record<string, string>,
  asked: string[],
  secrets: string[],
): Promise<Granted> {
  const url = oauthEndpoints(options.baseUrl).token;
  const form = new URLSearchParams({ ...fields, client_id: options.clientId });
  if (options.clientSecret) form.set("client_secret", options.clientSecret);
  const hide = (text: string) =>
    [...secrets, options.clientSecret ?? ""].filter((s) => s.length >= 8)
      .reduce((t, s) => t.replaceAll(s, "…"), text);
  const now = options.now ?? Date.now;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: form.toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs),
      ...(options.httpClient ? { client: options.httpClient } : {}),
    } as RequestInit);
  } catch (error) {
    throw new SignInError(
      `could not reach Bitbucket's token endpoint ${url.href}: ${hide(messageOf(error))}`,
    );
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) body = parsed;
  } catch {
    // not JSON: said below
  }
  if (!response.ok || typeof body.access_token !== "string" || body.access_token === "") {
    const code = typeof body.error === "string" ? body.error : undefined;
    const said = typeof body.error_description === "string" ? ` (${body.error_description})` : "";
    const detail = code ? `${code}${said}` : `HTTP ${response.status} without an OAuth answer`;
    throw new SignInError(
      `Bitbucket's token endpoint refused ${what}: ${hide(detail).slice(0, 300)}`,
      code,
    );
  }
  const seconds = typeof body.expires_in === "number" && body.expires_in > 0
    ? body.expires_in
    : DEFAULT_ACCESS_SECONDS;
  const scope = typeof body.scope === "string" ? body.scope.split(/[\s,]+/).filter(Boolean) : [];
  return {
    accessToken: body.access_token,
    ...(typeof body.refresh_token === "string" && body.refresh_token !== ""
      ? { refreshToken: body.refresh_token }
      : {}),
    expiresAt: now() + seconds * 1000,
    scopes: scope.length > 0 ? scope : asked,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
