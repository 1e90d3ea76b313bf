/**
 * One sign-in with Bitbucket's OAuth 2.0 provider, authorization code with
 * PKCE (S256): the redirect end listens on 127.0.0.1, the authorization URL
 * is made (client id, the loopback redirect URL, the scopes, the state and
 * the challenge: nothing secret), and once the person has consented in their
 * browser the code is traded for tokens and Bitbucket is asked whose they
 * are. `login` and the server's in-client sign-in both run it.
 */
import { BitbucketClient } from "../bitbucket/transport/client.ts";
import type { ClientCertificate } from "../bitbucket/transport/client_auth.ts";
import { tokenUser } from "../bitbucket/token_user.ts";
import { listenForRedirect } from "./loopback.ts";
import { signInSecrets } from "./pkce.ts";
import type { Session } from "./session.ts";
import {
  exchangeCode,
  oauthEndpoints,
  SignInError,
  type TokenEndpointOptions,
} from "./token_endpoint.ts";

/** How long a person has to finish signing in once the page is offered: 5 minutes. */
export const SIGN_IN_WAIT_MS = 5 * 60_000;

/** What a sign-in needs. */
export interface SignInOptions extends TokenEndpointOptions {
  /** The scopes to ask for. */
  scopes: string[];
  /** The fixed loopback port of the incoming link's redirect URL; absent, any free port. */
  redirectPort?: number;
  /** How long the person has, in milliseconds (default {@link SIGN_IN_WAIT_MS}). */
  waitMs?: number;
  /** The client certificate Bitbucket's requests present (mutual TLS), if any. */
  clientCertificate?: ClientCertificate;
}

/** A sign-in under way: the page to open, and the session it ends in. */
export interface PendingSignIn {
  /** Bitbucket's authorization page for this sign-in. */
  url: URL;
  redirectUri: string;
  /** Resolves once the person consented and the code was traded; rejects with a {@link SignInError}. */
  session: Promise<Session>;
  /** Stops waiting (the listener closes); `session` rejects. */
  cancel(): Promise<void>;
  /** Resolves once the listener has closed, its last page sent (a process may exit then). */
  closed(): Promise<void>;
}

/**
 * Starts a sign-in: listens for the redirect and makes the page to open.
 * Throws as the listener does (no permission for 127.0.0.1, the fixed port taken).
 */
export async function startSignIn(options: SignInOptions): Promise<PendingSignIn> {
  const secrets = await signInSecrets();
  const now = options.now ?? Date.now;
  let settle!: { resolve(s: Session): void; reject(e: Error): void };
  const session = new Promise<Session>((resolve, reject) => settle = { resolve, reject });
  session.catch(() => {}); // a caller may never wait for it
  let finished = false;
  let closing: Promise<void> | undefined;
  // Graceful: the page of the request being answered is still sent.
  const close = () => closing ??= loopback.close().catch(() => {});
  const finish = (outcome: Session | Error) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    queueMicrotask(() => void close());
    if (outcome instanceof Error) settle.reject(outcome);
    else settle.resolve(outcome);
  };
  const loopback = listenForRedirect({
    state: secrets.state,
    port: options.redirectPort,
    onError(error, description) {
      finish(
        new SignInError(
          `Bitbucket did not sign you in: ${error}${description ? ` (${description})` : ""}`,
          error,
        ),
      );
    },
    async onCode(code) {
      try {
        const granted = await exchangeCode(options, {
          code,
          verifier: secrets.verifier,
          redirectUri: loopback.redirectUri,
          scopes: options.scopes,
        });
        const user = await whoseToken(options, granted.accessToken);
        const signedIn: Session = {
          url: options.baseUrl.href,
          clientId: options.clientId,
          redirectUri: loopback.redirectUri,
          ...granted,
          ...(user ? { user } : {}),
          signedInAt: now(),
        };
        finish(signedIn);
        return {
          ok: true,
          message: `Signed in to Bitbucket${
            user ? ` as ${user}` : ""
          }. You can close this tab and go back.`,
        };
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        finish(failure);
        return { ok: false, message: `The sign-in failed: ${failure.message}` };
      }
    },
  });
  const waitMs = options.waitMs ?? SIGN_IN_WAIT_MS;
  const timer = setTimeout(() => {
    finish(
      new SignInError(
        `nobody finished signing in within ${Math.round(waitMs / 1000)} seconds`,
        "timeout",
      ),
    );
  }, waitMs);
  const url = oauthEndpoints(options.baseUrl).authorize;
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: options.clientId,
    redirect_uri: loopback.redirectUri,
    scope: options.scopes.join(" "),
    state: secrets.state,
    code_challenge: secrets.challenge,
    code_challenge_method: "S256",
  }).toString();
  return {
    url,
    redirectUri: loopback.redirectUri,
    session,
    async cancel() {
      finish(new SignInError("the sign-in was cancelled", "cancelled"));
      await close();
    },
    closed: () => close(),
  };
}

/** Whom Bitbucket says `token` belongs to; undefined when it does not say (or cannot be asked). */
export async function whoseToken(
  options: Pick<SignInOptions, "baseUrl" | "timeoutMs" | "fetch" | "clientCertificate">,
  token: string,
): Promise<string | undefined> {
  const client = new BitbucketClient({
    baseUrl: options.baseUrl,
    token,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    clientCertificate: options.clientCertificate,
  });
  try {
    return await tokenUser(client);
  } catch {
    return undefined;
  }
}
