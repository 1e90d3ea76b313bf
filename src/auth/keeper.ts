/**
 * The signed-in session of a running process: it hands out an access token
 * that is not about to expire, refreshing it first (a minute early) with the
 * refresh token, keeping the rotated refresh token Bitbucket issues, and
 * storing the new session. One refresh runs at a time. When Bitbucket refuses
 * the refresh token, another process of the same person may have rotated it
 * first: the store is read again before the session is given up.
 */
import type { Session } from "./session.ts";
import type { SessionStore } from "./store.ts";
import { refreshSession, SignInError, type TokenEndpointOptions } from "./token_endpoint.ts";

/** How long before its expiry an access token is refreshed: one minute. */
export const REFRESH_MARGIN_MS = 60_000;

/** What the keeper is made with. */
export interface KeeperOptions extends TokenEndpointOptions {
  store: SessionStore;
  /** The session read at start-up, if any. */
  initial?: Session;
  /** Refresh this long before expiry (default {@link REFRESH_MARGIN_MS}). */
  marginMs?: number;
  /** Told what happened to the session, in words that never hold a token. */
  log?: (level: "warn" | "info", message: string) => void;
}

/** The session of this process, refreshed as it goes. */
export class SessionKeeper {
  readonly #options: KeeperOptions;
  readonly #now: () => number;
  #session: Session | undefined;
  #refreshing: Promise<Session | undefined> | undefined;

  constructor(options: KeeperOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#session = this.#ours(options.initial);
  }

  /** Where the session is kept, in words. */
  get where(): string {
    return this.#options.store.where;
  }

  /** The session as it is now, without refreshing it. */
  get session(): Session | undefined {
    return this.#session;
  }

  /**
   * An access token good for at least the margin, refreshing first when
   * needed; undefined when there is no session (or it ended). A failure to
   * reach the token endpoint is thrown.
   */
  async token(): Promise<string | undefined> {
    return (await this.current())?.accessToken;
  }

  /** The session with a usable access token, refreshed first when needed; undefined without one. */
  async current(): Promise<Session | undefined> {
    const session = this.#session;
    if (session === undefined) return undefined;
    if (session.expiresAt - (this.#options.marginMs ?? REFRESH_MARGIN_MS) > this.#now()) {
      return session;
    }
    this.#refreshing ??= this.#refresh(session).finally(() => this.#refreshing = undefined);
    return await this.#refreshing;
  }

  /**
   * After Bitbucket refused `token` (401): when it is the current one, it is
   * taken as expired and refreshed; the new token, or undefined.
   */
  async refused(token: string): Promise<string | undefined> {
    const session = this.#session;
    if (session?.accessToken === token) this.#session = { ...session, expiresAt: 0 };
    return await this.token();
  }

  /** Takes a new session (a sign-in just finished) and stores it. */
  async adopt(session: Session): Promise<void> {
    this.#session = session;
    await this.#options.store.save(session);
  }

  /** Forgets the session here and in the store; true when the store held one. */
  async forget(): Promise<boolean> {
    this.#session = undefined;
    return await this.#options.store.remove(this.#options.baseUrl.href);
  }

  /** `session` when it belongs to this Bitbucket and incoming link. */
  #ours(session: Session | undefined): Session | undefined {
    if (session === undefined) return undefined;
    const { baseUrl, clientId } = this.#options;
    return session.url === baseUrl.href && session.clientId === clientId ? session : undefined;
  }

  async #refresh(stale: Session, again = false): Promise<Session | undefined> {
    const log = this.#options.log ?? (() => {});
    if (!stale.refreshToken) {
      this.#session = undefined;
      log("warn", "the signed-in session expired and has no refresh token: sign in again");
      return undefined;
    }
    let next: Session;
    try {
      next = await refreshSession(this.#options, stale);
    } catch (error) {
      if (!(error instanceof SignInError) || error.code === undefined) throw error;
      const stored = this.#ours(await this.#options.store.load(stale.url).catch(() => undefined));
      if (!again && stored !== undefined && stored.refreshToken !== stale.refreshToken) {
        // Another process refreshed first and stored what Bitbucket rotated.
        this.#session = stored;
        log("info", "the signed-in session was refreshed by another process; using its tokens");
        const margin = this.#options.marginMs ?? REFRESH_MARGIN_MS;
        return stored.expiresAt - margin > this.#now() ? stored : await this.#refresh(stored, true);
      }
      this.#session = undefined;
      await this.#options.store.remove(stale.url).catch(() => false);
      log("warn", `the signed-in session ended: ${error.message}; sign in again`);
      return undefined;
    }
    this.#session = next;
    try {
      await this.#options.store.save(next);
    } catch (error) {
      log(
        "warn",
        `the refreshed session could not be stored in ${this.where} (${
          error instanceof Error ? error.message : String(error)
        }): this process keeps it until it ends`,
      );
    }
    log("info", "the signed-in session's access token was refreshed");
    return next;
  }
}
