/**
 * The command line's side of sign-in with Bitbucket (`--oauth-client-id`):
 * the settings read from the flag and `BITBUCKET_OAUTH_CLIENT_SECRET`, the
 * refusal to start with a server-wide token as well, and the start-up line
 * saying where clients discover the sign-in, and the words for a token
 * Bitbucket refused when each person signs in.
 */
import { type EnvReader, StartupError } from "../config.ts";
import { getOAuthProtectedResourceMetadataUrl } from "../deps/mcp.ts";
import { scopesFor } from "../server/oauth/metadata.ts";
import type { OAuthSettings } from "../server/oauth/gate.ts";
import type { ToolEntry } from "../tools/kit/define.ts";
import type { HintTable } from "../bitbucket/transport/advice.ts";
import { CLI_HINTS } from "./hints.ts";

/** The incoming link's client id: `--oauth-client-id`, else BITBUCKET_OAUTH_CLIENT_ID. */
export function clientIdOf(flags: { oauthClientId?: string }, env: EnvReader): string | undefined {
  return flags.oauthClientId ?? (env("BITBUCKET_OAUTH_CLIENT_ID") || undefined);
}

/**
 * The sign-in settings, or undefined without `--oauth-client-id`. With it, a
 * `BITBUCKET_TOKEN` stops the start: it would never be used (every request
 * must bring a token Bitbucket vouches for), and an operator who set it would
 * believe otherwise.
 */
export function oauthSettings(
  clientId: string | undefined,
  env: EnvReader,
  serverToken: string | undefined,
): OAuthSettings | undefined {
  if (clientId === undefined) return undefined;
  if (serverToken) {
    throw new StartupError(
      "BITBUCKET_TOKEN is set, but with --oauth-client-id each person signs in with their own Bitbucket account and no request is served with a server-wide token: unset BITBUCKET_TOKEN",
    );
  }
  return { clientId, confidential: Boolean(env("BITBUCKET_OAUTH_CLIENT_SECRET")) };
}

/** The start-up notice of a server with sign-in: the client id, the scopes and the discovery URL. */
export function oauthStartLine(
  settings: OAuthSettings,
  mcpUrl: URL,
  tools: readonly ToolEntry[],
): string {
  const secret = settings.confidential
    ? "confidential: clients send the link's secret to Bitbucket"
    : "public: PKCE only";
  return `sign-in with Bitbucket (OAuth) as client ${settings.clientId} (${secret}); scopes ${
    scopesFor(tools).join(" ")
  }; metadata at ${getOAuthProtectedResourceMetadataUrl(mcpUrl)}`;
}

/**
 * The fixes Bitbucket errors suggest, in the words of a server whose people
 * sign in: a refused token is theirs to renew from their client, not a
 * BITBUCKET_TOKEN to replace.
 */
export function hintsFor(settings: OAuthSettings | undefined): HintTable {
  if (!settings) return CLI_HINTS;
  return {
    ...CLI_HINTS,
    renew_token:
      "sign in to Bitbucket again from your MCP client; a write needs REPO_WRITE, which the next write asks your client for",
  };
}
