/**
 * `bitbucket-mcp login` and `logout`: signing a person in with their
 * Bitbucket account on this machine (authorization code with PKCE, the
 * redirect to 127.0.0.1, the page opened in their browser where one can be
 * and printed always), the session kept in the keyring (or the owner-only
 * file), and forgotten again. Neither ever prints a token.
 */
import { type EnvReader, readConfig, StartupError } from "../config.ts";
import { checkListenPermission, checkNetPermission } from "../config.ts";
import { startSignIn } from "../auth/authorization.ts";
import { chooseStore } from "../auth/store_choice.ts";
import { SignInError } from "../auth/token_endpoint.ts";
import type { Session } from "../auth/session.ts";
import { openBrowser } from "./browser.ts";
import { withClientCertificate } from "./client_cert_check.ts";
import type { Flags } from "./flags.ts";
import { type Logger, loggingFetch } from "./log.ts";
import { writeErr, writeOut } from "./output.ts";
import {
  listenGrant,
  needsClientId,
  signInOptions,
  type SignInSettings,
  signInSettings,
} from "./session_setup.ts";

/** How `login` opens the page; tests pass a stand-in browser. */
export type Opener = (url: URL) => Promise<boolean>;

/** The settings of login and logout: the URL, the link, permission to reach Bitbucket. */
async function settingsOf(flags: Flags, env: EnvReader, logger: Logger, command: string) {
  const config = withClientCertificate(
    readConfig(flags, env, { tokenOptional: true }),
    env,
    (message) => logger.log("warn", message),
  );
  const settings = signInSettings(flags, env, config);
  if (settings === undefined) throw needsClientId(command);
  await checkNetPermission(settings.baseUrl);
  return { settings, token: config.token };
}

/** A session in words: who, what for, until when; never a token. */
export function describeSession(session: Session): string {
  const who = session.user ? `as ${session.user}` : "(Bitbucket did not say as whom)";
  return `${who}, scopes ${session.scopes.join(" ")}; the access token is good until ${
    new Date(session.expiresAt).toISOString()
  }${session.refreshToken ? " and is refreshed by itself" : ", with no refresh token"}`;
}

/** Runs `login`; resolves to the exit status. */
export async function login(
  flags: Flags,
  env: EnvReader,
  logger: Logger,
  open: Opener = (url) => openBrowser(url),
): Promise<number> {
  const { settings, token } = await settingsOf(flags, env, logger, "login");
  await checkListenPermission(settings.redirectPort ? listenGrant(settings) : "127.0.0.1:0");
  const { store } = await chooseStore(
    { home: env, warn: (message) => logger.log("warn", message) },
    settings.baseUrl.href,
  );
  const fetcher = loggingFetch(settings.baseUrl, logger);
  let pending;
  try {
    pending = await startSignIn(signInOptions(settings, fetcher));
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new StartupError(
        `cannot listen on ${listenGrant(settings)} for Bitbucket's redirect: the port is taken`,
      );
    }
    throw error;
  }
  writeOut(
    `Sign in to Bitbucket at ${
      instanceOf(settings)
    }: open this page in your browser\n\n  ${pending.url.href}\n`,
  );
  if (await open(pending.url)) writeOut("(opened in your browser; waiting for you to sign in)");
  else writeOut("(waiting for you to sign in)");
  let session: Session;
  try {
    session = await pending.session;
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    writeErr(`bitbucket-mcp: not signed in: ${error.message}`);
    return 1;
  } finally {
    await pending.closed(); // the browser gets its page before the process ends
  }
  await store.save(session);
  writeOut(
    `Signed in to ${instanceOf(settings)} ${describeSession(session)}; kept in ${store.where}.`,
  );
  if (token) {
    writeOut(
      "Note: BITBUCKET_TOKEN is set here, and a server started with it uses it, not this session.",
    );
  }
  return 0;
}

/** Runs `logout`; resolves to the exit status. */
export async function logout(flags: Flags, env: EnvReader, logger: Logger): Promise<number> {
  const { settings } = await settingsOf(flags, env, logger, "logout");
  const { store, session } = await chooseStore(
    { home: env, warn: (message) => logger.log("warn", message) },
    settings.baseUrl.href,
  );
  const removed = session !== undefined && await store.remove(settings.baseUrl.href);
  writeOut(
    removed
      ? `Signed out of ${
        instanceOf(settings)
      }: the session is gone from ${store.where} (Bitbucket keeps the link's authorization until you revoke it in your account settings or it expires).`
      : `There was no session for ${instanceOf(settings)} in ${store.where}.`,
  );
  return 0;
}

function instanceOf(settings: SignInSettings): string {
  return settings.baseUrl.href.replace(/\/$/, "");
}
