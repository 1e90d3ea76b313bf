/**
 * The `session` line of `check` for a server on a person's signed-in
 * session (no BITBUCKET_TOKEN, an incoming link named): where the session is
 * kept, whether there is one, who it is (asked of Bitbucket, after a refresh
 * when the access token is about to expire) and until when; and the
 * `sign-in` line: whether a client can sign the person in from inside it.
 */
import { BitbucketClient } from "../bitbucket/transport/client.ts";
import { BitbucketError } from "../bitbucket/transport/errors.ts";
import { tokenUser } from "../bitbucket/token_user.ts";
import { authorizingFetch } from "../auth/authorizing_fetch.ts";
import { type EnvReader, StartupError } from "../config.ts";
import { diagnoseToken } from "./check_diagnosis.ts";
import type { Logger } from "./log.ts";
import { describeSession } from "./login.ts";
import {
  listenGrant,
  loginCommand,
  mayListen,
  openKeeper,
  sessionHints,
  type SignInSettings,
} from "./session_setup.ts";

/** A line of `check` (the shape check.ts prints). */
interface CheckLine {
  name: string;
  status: "pass" | "warn" | "fail" | "skip";
  detail: string;
  fix?: string;
}

/** The session's lines; `answered` is false when Bitbucket did not answer (the who is not asked). */
export async function checkSession(
  settings: SignInSettings,
  env: EnvReader,
  logger: Logger,
  fetcher: typeof fetch,
  answered: boolean,
): Promise<CheckLine[]> {
  const login = `run ${loginCommand(settings)}`;
  const signIn: CheckLine = await mayListen(settings)
    ? {
      name: "sign-in",
      status: "pass",
      detail:
        `a client that opens URLs (MCP 2025-11-25 and later) can sign you in from inside it (listening on ${
          listenGrant(settings)
        } permitted)`,
    }
    : {
      name: "sign-in",
      status: "warn",
      detail: `a client cannot sign you in from inside it: this process may not listen on ${
        listenGrant(settings)
      }`,
      fix: `add ${listenGrant(settings)} to --allow-net, or ${login} when the session ends`,
    };
  let keeper;
  try {
    keeper = await openKeeper(settings, env, logger, fetcher);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    return [{ name: "session", status: "fail", detail: error.message }, signIn];
  }
  if (keeper.session === undefined) {
    return [{
      name: "session",
      status: "fail",
      detail: `not signed in to ${settings.baseUrl.origin} (no session in ${keeper.where})`,
      fix: login,
    }, signIn];
  }
  if (!answered) {
    return [
      { name: "session", status: "skip", detail: "not checked: needs Bitbucket to answer" },
      signIn,
    ];
  }
  let session;
  try {
    session = await keeper.current();
  } catch (error) {
    return [{
      name: "session",
      status: "fail",
      detail: `the access token is due for a refresh, and it failed: ${(error as Error).message}`,
    }, signIn];
  }
  if (session === undefined) {
    return [{
      name: "session",
      status: "fail",
      detail: "the session ended: Bitbucket refused its refresh token (or it had none)",
      fix: login,
    }, signIn];
  }
  const client = new BitbucketClient({
    baseUrl: settings.baseUrl,
    token: "(signed-in session)",
    timeoutMs: settings.timeoutMs,
    fetch: authorizingFetch(keeper, settings.baseUrl.origin, fetcher),
    hints: sessionHints(settings),
    clientCertificate: settings.clientCertificate,
  });
  try {
    const user = await tokenUser(client);
    const now = keeper.session ?? session;
    return [{
      name: "session",
      status: "pass",
      detail: `signed in ${
        describeSession(user ? { ...now, user } : now)
      }; kept in ${keeper.where}`,
    }, signIn];
  } catch (error) {
    if (!(error instanceof BitbucketError)) throw error;
    const diagnosis = diagnoseToken(error, undefined);
    if (error.kind === "unauthorized") diagnosis.fix = login;
    return [{ name: "session", status: "fail", ...diagnosis }, signIn];
  }
}
