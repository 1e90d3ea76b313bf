/**
 * A signed-in session with one Bitbucket: the tokens Bitbucket's OAuth 2.0
 * provider issued to one person through one incoming link, and what is known
 * of them. This is the one thing a store keeps; it is parsed back strictly,
 * so a damaged or foreign record reads as no session rather than as a token.
 */

/** Bitbucket's scope for reading repositories. */
export const READ_SCOPE = "REPO_READ";
/** Bitbucket's scope for writing to repositories (it grants reads too). */
export const WRITE_SCOPE = "REPO_WRITE";

/** The scopes a sign-in asks for: REPO_READ, and REPO_WRITE unless the server is read-only. */
export function signInScopes(readOnly: boolean): string[] {
  return readOnly ? [READ_SCOPE] : [READ_SCOPE, WRITE_SCOPE];
}

/** One person's session with one Bitbucket. */
export interface Session {
  /** Bitbucket's base URL (with its context path), as `URL.href`: what the session is for. */
  url: string;
  /** The incoming link's client id the tokens were issued to. */
  clientId: string;
  /** The redirect URL of the sign-in: Bitbucket checks it again on a refresh. */
  redirectUri: string;
  accessToken: string;
  /** Absent when Bitbucket issued none: the session then ends with the access token. */
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt: number;
  /** The scopes Bitbucket says it granted (or those asked for, when it does not say). */
  scopes: string[];
  /** Whom Bitbucket says the token belongs to, when it said. */
  user?: string;
  /** When the person signed in, in milliseconds since the epoch. */
  signedInAt: number;
}

/** The session as a store keeps it: JSON, with a version so a later format can tell. */
export function serializeSession(session: Session): string {
  return JSON.stringify({ v: 1, ...session });
}

/** A stored session, or undefined when the text is not one this version wrote. */
export function parseSession(text: string): Session | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== "object" || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const str = (k: string) => typeof r[k] === "string" && (r[k] as string).length > 0;
  const num = (k: string) => typeof r[k] === "number" && Number.isFinite(r[k]);
  if (r.v !== 1 || !str("url") || !str("clientId") || !str("redirectUri")) return undefined;
  if (!str("accessToken") || !num("expiresAt") || !num("signedInAt")) return undefined;
  if (r.refreshToken !== undefined && !str("refreshToken")) return undefined;
  if (r.user !== undefined && !str("user")) return undefined;
  if (!Array.isArray(r.scopes) || !r.scopes.every((s) => typeof s === "string")) return undefined;
  return {
    url: r.url as string,
    clientId: r.clientId as string,
    redirectUri: r.redirectUri as string,
    accessToken: r.accessToken as string,
    ...(r.refreshToken === undefined ? {} : { refreshToken: r.refreshToken as string }),
    expiresAt: r.expiresAt as number,
    scopes: r.scopes as string[],
    ...(r.user === undefined ? {} : { user: r.user as string }),
    signedInAt: r.signedInAt as number,
  };
}
