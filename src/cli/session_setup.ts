/**
 * The command line's side of the signed-in session: the incoming link's
 * settings read from the flags and environment (or the profile standing in
 * for them), the store the session is kept in, the keeper that refreshes it,
 * and, for a stdio server, the Bitbucket `fetch` that carries it and the
 * sign-in offered from inside the client. The fixes its errors suggest are
 * worded here, in the command line's terms.
 */
import type { HintTable } from "../bitbucket/transport/advice.ts";
import type { ClientCertificate } from "../bitbucket/transport/client_auth.ts";
import { type EnvReader, StartupError } from "../config.ts";
import { authorizingFetch } from "../auth/authorizing_fetch.ts";
import { InClientSignIn } from "../auth/in_client.ts";
import { SessionKeeper } from "../auth/keeper.ts";
import { signInScopes } from "../auth/session.ts";
import { chooseStore } from "../auth/store_choice.ts";
import type { SignInOptions } from "../auth/authorization.ts";
import type { SignInPort } from "../server/sign_in_gate.ts";
import { CLI_HINTS } from "./hints.ts";
import { clientIdOf } from "./oauth_setup.ts";
import type { Logger } from "./log.ts";

/** What a sign-in with Bitbucket needs, read once. */
export interface SignInSettings {
  baseUrl: URL;
  clientId: string;
  clientSecret?: string;
  redirectPort?: number;
  scopes: string[];
  timeoutMs: number;
  clientCertificate?: ClientCertificate;
  /** How the person names this instance on the command line: `--profile work`, or the client id. */
  selector: string;
}

/** The sign-in settings of this run, or undefined when no incoming link is named. */
export function signInSettings(
  flags: { oauthClientId?: string; redirectPort?: number; readOnly: boolean; profile?: string },
  env: EnvReader,
  config: { baseUrl: URL; timeoutMs: number; clientCertificate?: ClientCertificate },
): SignInSettings | undefined {
  const clientId = clientIdOf(flags, env);
  if (clientId === undefined) return undefined;
  const clientSecret = env("BITBUCKET_OAUTH_CLIENT_SECRET") || undefined;
  const profile = env("BITBUCKET_PROFILE");
  return {
    baseUrl: config.baseUrl,
    clientId,
    ...(clientSecret ? { clientSecret } : {}),
    ...(flags.redirectPort ? { redirectPort: flags.redirectPort } : {}),
    scopes: signInScopes(flags.readOnly),
    timeoutMs: config.timeoutMs,
    ...(config.clientCertificate ? { clientCertificate: config.clientCertificate } : {}),
    selector: profile
      ? `--profile ${profile}`
      : `--oauth-client-id ${clientId}${
        flags.redirectPort ? ` --redirect-port ${flags.redirectPort}` : ""
      }`,
  };
}

/** The way to sign in outside a client, for this instance. */
export function loginCommand(settings: SignInSettings): string {
  return `bitbucket-mcp login ${settings.selector}`;
}

/** The fixes Bitbucket errors suggest when the token is the person's session. */
export function sessionHints(settings: SignInSettings): HintTable {
  return {
    ...CLI_HINTS,
    renew_token: `sign in again: run '${
      loginCommand(settings)
    }' in a terminal (with the same URL and permissions as this server), or call a tool and open the sign-in page your client shows`,
  };
}

/** The sign-in as the token endpoint and the loopback listener take it. */
export function signInOptions(settings: SignInSettings, fetcher: typeof fetch): SignInOptions {
  return {
    baseUrl: settings.baseUrl,
    clientId: settings.clientId,
    ...(settings.clientSecret ? { clientSecret: settings.clientSecret } : {}),
    ...(settings.redirectPort ? { redirectPort: settings.redirectPort } : {}),
    scopes: settings.scopes,
    timeoutMs: settings.timeoutMs,
    fetch: fetcher,
    ...(settings.clientCertificate
      ? {
        clientCertificate: settings.clientCertificate,
        httpClient: settings.clientCertificate.httpClient,
      }
      : {}),
  };
}

/** The keeper of this run's session, its store chosen (a problem stops the start). */
export async function openKeeper(
  settings: SignInSettings,
  env: EnvReader,
  logger: Logger,
  fetcher: typeof fetch,
): Promise<SessionKeeper> {
  const { store, session } = await chooseStore(
    { home: env, warn: (message) => logger.log("warn", message) },
    settings.baseUrl.href,
  );
  return new SessionKeeper({
    ...signInOptions(settings, fetcher),
    store,
    ...(session ? { initial: session } : {}),
    log: (level, message) => logger.log(level, message),
  });
}

/** Whether this process may listen on the sign-in's loopback address. */
export async function mayListen(settings: SignInSettings): Promise<boolean> {
  const host = settings.redirectPort ? `127.0.0.1:${settings.redirectPort}` : "127.0.0.1";
  return (await Deno.permissions.query({ name: "net", host })).state === "granted";
}

/** The `--allow-net` entry the sign-in's listener needs. */
export function listenGrant(settings: SignInSettings): string {
  return settings.redirectPort ? `127.0.0.1:${settings.redirectPort}` : "127.0.0.1";
}

/** A stdio server's session: the `fetch` that carries it, and the in-client sign-in. */
export interface ServingSession {
  keeper: SessionKeeper;
  fetch: typeof fetch;
  port: SignInPort;
  hints: HintTable;
  close(): Promise<void>;
}

/**
 * The session a stdio server without BITBUCKET_TOKEN serves with. `fetcher`
 * is how Bitbucket is reached (logged); the session's token rides on it.
 */
export async function servingSession(
  settings: SignInSettings,
  env: EnvReader,
  logger: Logger,
  fetcher: typeof fetch,
): Promise<ServingSession> {
  const keeper = await openKeeper(settings, env, logger, fetcher);
  const login = loginCommand(settings);
  const inClient = new InClientSignIn(
    keeper,
    signInOptions(settings, fetcher),
    `run '${login}' in a terminal, then call the tool again`,
  );
  const port: SignInPort = {
    instance: inClient.instance,
    fallbackHint: inClient.fallbackHint,
    ready: () => inClient.ready(),
    async begin() {
      if (!await mayListen(settings)) {
        throw new Error(
          `this server may not listen on ${listenGrant(settings)} for Bitbucket's redirect (add ${
            listenGrant(settings)
          } to its --allow-net)`,
        );
      }
      return await inClient.begin();
    },
    wait: (signal) => inClient.wait(signal),
  };
  const who = keeper.session
    ? `signed in as ${keeper.session.user ?? "(someone)"}`
    : "not signed in yet: the first call asks the person to sign in";
  logger.log("info", `serving with the signed-in session (${who}); kept in ${keeper.where}`);
  return {
    keeper,
    fetch: authorizingFetch(keeper, settings.baseUrl.origin, fetcher),
    port,
    hints: sessionHints(settings),
    close: () => inClient.close(),
  };
}

/** The start-up error of a command that needs an incoming link and has none. */
export function needsClientId(command: string): StartupError {
  return new StartupError(
    `${command} needs the incoming link's client id: pass --oauth-client-id ID or set BITBUCKET_OAUTH_CLIENT_ID (or use a profile with oauth_client_id); Bitbucket's administrator makes the link (docs/oauth.md)`,
  );
}
