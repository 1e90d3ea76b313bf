/**
 * Who a bearer token belongs to, asked of Bitbucket: it has no introspection
 * endpoint, so a token is verified by one cheap authenticated read whose
 * answer names its user (`X-AUSERNAME`). The answer is kept briefly, per
 * SHA-256 of the token (never the token itself), so a session's requests do
 * not each cost a Bitbucket round trip. A token that says who it is for (a
 * JWT with `aud`) and names neither this server, nor Bitbucket, nor the
 * incoming link's client, is refused without being sent anywhere.
 */
import {
  type AuthInfo,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
} from "../../deps/mcp.ts";
import { BitbucketClient, type BitbucketClientOptions } from "../../bitbucket/transport/client.ts";
import { BitbucketError } from "../../bitbucket/transport/errors.ts";
import { tokenUser } from "../../bitbucket/token_user.ts";
import { WRITE_SCOPE } from "./metadata.ts";

/** How long Bitbucket's answer about a token is trusted: a revoked token works this long at most. */
export const TOKEN_CACHE_SECONDS = 60;
/** How many tokens' answers are kept at once; the oldest goes first. */
export const TOKEN_CACHE_ENTRIES = 1000;
/** `clientId` of the auth info of a token verified this way. */
export const SIGNED_IN = "bitbucket-mcp:bitbucket-token";

/** What is remembered of one verified token. */
interface Verified {
  user: string;
  /** Seconds since the epoch until which the answer is trusted. */
  until: number;
  /** Bitbucket refused a write made with this token: it lacks REPO_WRITE (or its user, the permission). */
  writeRefused: boolean;
}

/** The SHA-256 of `token` in hex: the only form a token is kept in. */
async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The audiences a JWT-shaped token names, or undefined for an opaque token (Bitbucket's own). */
export function statedAudience(token: string): { aud: string[]; exp?: number } | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  let claims: unknown;
  try {
    const b64 = parts[1]!.replaceAll("-", "+").replaceAll("_", "/");
    claims = JSON.parse(atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, "=")));
  } catch {
    return undefined;
  }
  if (typeof claims !== "object" || claims === null) return undefined;
  const { aud, exp } = claims as { aud?: unknown; exp?: unknown };
  const list = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud.map(String) : undefined;
  if (list === undefined) return undefined;
  return { aud: list, ...(typeof exp === "number" ? { exp } : {}) };
}

/** Two resource identifiers compared as the SDK does: without a fragment or one trailing slash. */
function sameResource(a: string, b: string): boolean {
  const plain = (s: string) => s.replace(/#.*$/, "").replace(/\/$/, "");
  return plain(a) === plain(b);
}

/**
 * Asks Bitbucket whose `token` is: the user's name, or null when Bitbucket
 * refuses the token (or answers as nobody); throws when it could not tell.
 */
export type Identify = (token: string) => Promise<string | null>;

/**
 * {@link Identify} through a Bitbucket client made for the token, as every
 * other request is (timeout, client certificate, logging), asking as `check`
 * does ({@link tokenUser}).
 */
export function bitbucketIdentity(
  client: Omit<BitbucketClientOptions, "token" | "username">,
): Identify {
  return async (token) => {
    try {
      return await tokenUser(new BitbucketClient({ ...client, token })) ?? null;
    } catch (error) {
      if (error instanceof BitbucketError && error.kind === "unauthorized") return null;
      throw error;
    }
  };
}

/** Options for {@link BitbucketTokenVerifier}. */
export interface VerifierOptions {
  /** Bitbucket's base URL (with its context path). */
  bitbucket: URL;
  /** The incoming link's client id: an audience Bitbucket's own tokens may name. */
  clientId?: string;
  /** How a token's user is asked of Bitbucket. */
  identify: Identify;
  /** The scopes the exposed tools need: what a verified token is taken to hold until Bitbucket refuses a write. */
  scopes: readonly string[];
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

/**
 * Verifies tokens with Bitbucket and remembers the answers. A token's scopes
 * cannot be read from Bitbucket (the token response's `scope` goes to the
 * client, and a personal access token has none), so a verified token holds
 * the scopes the exposed tools need, less REPO_WRITE once Bitbucket has
 * refused a write made with it ({@link BitbucketTokenVerifier.refused}).
 */
export class BitbucketTokenVerifier {
  readonly #options: VerifierOptions;
  readonly #known = new Map<string, Promise<Verified>>();
  readonly #now: () => number;

  constructor(options: VerifierOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The SDK's verifier for requests that reached this server as `resource`. */
  forResource(resource: URL): OAuthTokenVerifier {
    return { verifyAccessToken: (token) => this.verify(token, resource) };
  }

  /** The auth info of `token`, or an OAuthError the SDK answers 401 (or 500 when Bitbucket failed). */
  async verify(token: string, resource: URL): Promise<AuthInfo> {
    const stated = statedAudience(token);
    if (stated !== undefined) {
      const { bitbucket, clientId } = this.#options;
      const ours = [resource.href, bitbucket.href, ...(clientId ? [clientId] : [])];
      const match = stated.aud.find((aud) => ours.some((o) => sameResource(aud, o)));
      if (match === undefined) {
        // The SDK compares `resource` with the resource it expects and refuses this one.
        return { token, clientId: SIGNED_IN, scopes: [], resource: audienceUrl(stated.aud[0]) };
      }
      if (stated.exp !== undefined && stated.exp * 1000 < this.#now()) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, "Token has expired");
      }
    }
    const verified = await this.#verified(token);
    const scopes = verified.writeRefused
      ? this.#options.scopes.filter((s) => s !== WRITE_SCOPE)
      : [...this.#options.scopes];
    return {
      token,
      clientId: SIGNED_IN,
      scopes,
      expiresAt: verified.until,
      resource,
      extra: { user: verified.user },
    };
  }

  /**
   * After Bitbucket refused a request made with `token` (401, or 403 for a
   * write): the answer about it is dropped, so the next request asks again.
   * For a write it is asked at once: a token Bitbucket still accepts was
   * refused the write (no REPO_WRITE, or no permission for its user), and its
   * next write is challenged for REPO_WRITE; one it no longer accepts
   * (expired, revoked) gets the 401 on its next request, and the client
   * refreshes it.
   */
  async refused(token: string, write: boolean): Promise<void> {
    this.#known.delete(await tokenHash(token));
    if (!write) return;
    try {
      (await this.#verified(token)).writeRefused = true;
    } catch {
      // no longer accepted at all: the next request is answered 401
    }
  }

  async #verified(token: string): Promise<Verified> {
    const key = await tokenHash(token);
    const cached = this.#known.get(key);
    if (cached) {
      const verified = await cached.catch(() => undefined);
      if (verified && verified.until * 1000 > this.#now()) return verified;
      this.#known.delete(key);
    }
    const pending = this.#ask(token);
    this.#known.set(key, pending);
    if (this.#known.size > TOKEN_CACHE_ENTRIES) {
      this.#known.delete(this.#known.keys().next().value!);
    }
    try {
      return await pending;
    } catch (error) {
      this.#known.delete(key);
      throw error;
    }
  }

  async #ask(token: string): Promise<Verified> {
    let user: string | null;
    try {
      user = await this.#options.identify(token);
    } catch (error) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        `Cannot verify the token: Bitbucket did not tell whose it is (${messageOf(error)})`,
      );
    }
    if (user === null) {
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        "Bitbucket does not accept this token: it is unknown, expired or revoked",
      );
    }
    return {
      user,
      until: Math.floor(this.#now() / 1000) + TOKEN_CACHE_SECONDS,
      writeRefused: false,
    };
  }
}

/** A stated audience as a URL (a name that is none becomes a URN, which matches nothing of ours). */
function audienceUrl(aud: string | undefined): URL {
  try {
    return new URL(aud ?? "");
  } catch {
    return new URL(`urn:audience:${encodeURIComponent(aud ?? "")}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
