/**
 * A fake Bitbucket that is an OAuth 2.0 provider, as Data Center 7.20+ is: on
 * 127.0.0.1, under the same `/bitbucket` context path as the fixture
 * Bitbucket, it serves `/rest/oauth2/latest/authorize` (authorization code
 * with PKCE, S256 only; the person who consents is fixed) and
 * `/rest/oauth2/latest/token` (the code with its verifier, and refresh), and
 * records what each was sent. Every other REST request must carry a token it
 * issued, unexpired, with REPO_WRITE for anything but a read; it then goes on
 * as it came, Authorization included, to a fixture Bitbucket, and comes back
 * naming the token's user in `X-AUSERNAME`, as Bitbucket does.
 */
import { type Route, startFixtureBitbucket } from "./fixture_bitbucket.ts";
import type { FixtureBitbucket } from "./fixture_bitbucket.ts";
import { WHO_AM_I_PATH } from "../src/bitbucket/token_user.ts";
import { APPLICATION_PROPERTIES_PATH } from "../src/bitbucket/transport/server_version.ts";

/** The read the server verifies a token with, answered as for a user with no recent repositories. */
export const WHO_AM_I_ROUTE: Route = {
  method: "GET",
  path: WHO_AM_I_PATH,
  body: { size: 0, limit: 1, isLastPage: true, values: [], start: 0 },
};

/** One request to the authorize endpoint, as sent. */
export type AuthorizeRecord = Record<string, string>;

/** One request to the token endpoint: its form fields, and whether a Basic header carried the client. */
export interface TokenRecord {
  fields: Record<string, string>;
  basic?: string;
  status: number;
}

/** A token the fake issued. */
export interface IssuedToken {
  user: string;
  scopes: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** The running fake. */
export interface FakeOAuthBitbucket {
  /** The base URL to give the server under test (with the context path). */
  url: string;
  /** The fixture Bitbucket behind it, which records each REST request that got through. */
  upstream: FixtureBitbucket;
  authorizations: AuthorizeRecord[];
  tokenRequests: TokenRecord[];
  /** Every access token issued, by value. */
  tokens: Map<string, IssuedToken>;
  /** The refresh tokens still good (a used one is gone: Bitbucket rotates them), by value. */
  refreshTokens: Map<string, { user: string; scopes: string[] }>;
  /** Every refresh token ever issued, in order. */
  refreshIssued: string[];
  /** REST requests refused, with why. */
  refused: { path: string; why: string }[];
  /** Issues an access token as if `user` had signed in granting `scopes`. */
  issue(user: string, scopes: string[], lifetimeSeconds?: number): string;
  close(): Promise<void>;
}

/** How the fake is set up. */
export interface FakeOAuthOptions {
  /** What the fixture Bitbucket behind it answers. */
  routes: Route[];
  /** The incoming link's client id. */
  clientId: string;
  /** The link's secret: when set, the token endpoint requires it. */
  clientSecret?: string;
  /** The person who consents at the authorize endpoint. */
  user: string;
  /** Access tokens' lifetime in seconds. */
  accessTokenSeconds?: number;
  /** What the person grants of the scopes asked for, at the `n`th authorization (from 0); all by default. */
  consent?: (requested: string[], n: number) => string[];
}

const CONTEXT = "/bitbucket/rest";
const KNOWN_SCOPES = new Set(["PUBLIC_REPOS", "REPO_READ", "REPO_WRITE", "REPO_ADMIN"]);

function randomToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return prefix + btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, "");
}

/** base64url(SHA-256(verifier)): the S256 challenge of a PKCE verifier. */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function oauthError(status: number, error: string, description: string): Response {
  return Response.json({ error, error_description: description }, { status });
}

/** Starts the fake in front of a fresh fixture Bitbucket answering `options.routes`. */
export function startFakeOAuthBitbucket(options: FakeOAuthOptions): FakeOAuthBitbucket {
  const upstream = startFixtureBitbucket([WHO_AM_I_ROUTE, ...options.routes]);
  const lifetime = options.accessTokenSeconds ?? 3600;
  const authorizations: AuthorizeRecord[] = [];
  const tokenRequests: TokenRecord[] = [];
  const tokens = new Map<string, IssuedToken>();
  const refused: { path: string; why: string }[] = [];
  const codes = new Map<string, { challenge: string; redirect: string; scopes: string[] }>();
  const refreshTokens = new Map<string, { user: string; scopes: string[] }>();
  const refreshIssued: string[] = [];

  const issue = (user: string, scopes: string[], seconds = lifetime) => {
    const token = randomToken("oauth-");
    tokens.set(token, { user, scopes, expiresAt: Date.now() + seconds * 1000 });
    return token;
  };
  const grant = (user: string, scopes: string[]) => {
    const refresh = randomToken("refresh-");
    refreshTokens.set(refresh, { user, scopes });
    refreshIssued.push(refresh);
    return Response.json({
      access_token: issue(user, scopes),
      refresh_token: refresh,
      token_type: "bearer",
      expires_in: lifetime,
      scope: scopes.join(" "),
    });
  };

  const authorize = (url: URL): Response => {
    const q = Object.fromEntries(url.searchParams);
    authorizations.push(q);
    if (q.client_id !== options.clientId) {
      return oauthError(400, "invalid_client", "no incoming link has this client id");
    }
    const redirect = new URL(q.redirect_uri ?? "");
    const back = (params: Record<string, string>) => {
      for (const [k, v] of Object.entries({ ...params, ...(q.state ? { state: q.state } : {}) })) {
        redirect.searchParams.set(k, v);
      }
      return new Response(null, { status: 302, headers: { Location: redirect.href } });
    };
    if (q.response_type !== "code") return back({ error: "unsupported_response_type" });
    if (q.code_challenge_method !== "S256" || !q.code_challenge) {
      return back({ error: "invalid_request", error_description: "PKCE S256 is required" });
    }
    const scopes = (q.scope ?? "").split(" ").filter((s) => s.length > 0);
    if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s))) {
      return back({ error: "invalid_scope" });
    }
    const granted = options.consent?.(scopes, authorizations.length - 1) ?? scopes;
    const code = randomToken("code-");
    codes.set(code, { challenge: q.code_challenge, redirect: q.redirect_uri!, scopes: granted });
    return back({ code });
  };

  const token = async (request: Request): Promise<Response> => {
    const fields = Object.fromEntries(new URLSearchParams(await request.text()));
    const header = request.headers.get("authorization") ?? "";
    const basic = header.startsWith("Basic ") ? atob(header.slice(6)) : undefined;
    const record: TokenRecord = { fields, ...(basic ? { basic } : {}), status: 200 };
    tokenRequests.push(record);
    const fail = (status: number, error: string, why: string) => {
      record.status = status;
      return oauthError(status, error, why);
    };
    const [basicId, basicSecret] = basic?.split(":") ?? [];
    const clientId = fields.client_id ?? basicId;
    if (clientId !== options.clientId) return fail(401, "invalid_client", "unknown client");
    if (options.clientSecret && (fields.client_secret ?? basicSecret) !== options.clientSecret) {
      return fail(401, "invalid_client", "wrong client secret");
    }
    if (fields.grant_type === "authorization_code") {
      const issued = codes.get(fields.code ?? "");
      codes.delete(fields.code ?? "");
      if (!issued) return fail(400, "invalid_grant", "unknown or used code");
      if (fields.redirect_uri !== issued.redirect) {
        return fail(400, "invalid_grant", "redirect_uri differs");
      }
      if (!fields.code_verifier || await s256(fields.code_verifier) !== issued.challenge) {
        return fail(400, "invalid_grant", "code_verifier does not match the challenge");
      }
      return grant(options.user, issued.scopes);
    }
    if (fields.grant_type === "refresh_token") {
      const held = refreshTokens.get(fields.refresh_token ?? "");
      refreshTokens.delete(fields.refresh_token ?? "");
      if (!held) return fail(400, "invalid_grant", "unknown refresh token");
      return grant(held.user, held.scopes);
    }
    return fail(400, "unsupported_grant_type", String(fields.grant_type));
  };

  const rest = async (request: Request, url: URL): Promise<Response> => {
    const path = url.pathname.slice(CONTEXT.length);
    const refuse = (why: string) => {
      refused.push({ path, why });
      return Response.json({ errors: [{ message: why }] }, { status: 401 });
    };
    if (path === APPLICATION_PROPERTIES_PATH && request.method === "GET") {
      // Bitbucket answers its version to anyone, as `check` asks it.
      return await fetch(new URL(url.pathname, upstream.url));
    }
    const bearer = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    const held = bearer === undefined ? undefined : tokens.get(bearer);
    if (!held) return refuse("Authentication failed. Please check your credentials and try again.");
    if (held.expiresAt <= Date.now()) return refuse("The access token has expired");
    const read = request.method === "GET" || request.method === "HEAD";
    if (!read && !held.scopes.includes("REPO_WRITE")) {
      return refuse("You are not permitted to access this resource");
    }
    const headers = new Headers(request.headers);
    headers.delete("host");
    const answer = await fetch(new URL(url.pathname + url.search, upstream.url), {
      method: request.method,
      headers,
      body: read ? undefined : await request.arrayBuffer(),
    });
    const out = new Headers(answer.headers);
    out.set("X-AUSERNAME", held.user);
    return new Response(answer.body, { status: answer.status, headers: out });
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === `${CONTEXT}/oauth2/latest/authorize` && request.method === "GET") {
      return authorize(url);
    }
    if (url.pathname === `${CONTEXT}/oauth2/latest/token` && request.method === "POST") {
      return token(request);
    }
    if (url.pathname.startsWith(`${CONTEXT}/`)) return rest(request, url);
    return new Response("not found", { status: 404 });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}/bitbucket`,
    upstream,
    authorizations,
    tokenRequests,
    tokens,
    refreshTokens,
    refreshIssued,
    refused,
    issue,
    async close() {
      await server.shutdown();
      await upstream.close();
    },
  };
}
