/**
 * The server's side of signing in from inside the client: one sign-in at a
 * time per process (a second call asking while one is under way gets the
 * same page), its session adopted by the keeper (and stored) once Bitbucket
 * has traded the code. The gate in src/server asks it through `SignInPort`.
 */
import { type SignInOptions, startSignIn } from "./authorization.ts";
import type { SessionKeeper } from "./keeper.ts";
import type { PendingSignIn } from "./authorization.ts";

/** The sign-in offered from inside the client. */
export class InClientSignIn {
  readonly instance: string;
  readonly fallbackHint: string;
  readonly #keeper: SessionKeeper;
  readonly #options: SignInOptions;
  #pending: { sign: PendingSignIn; done: Promise<void>; over: boolean } | undefined;

  /** `fallbackHint`: what to do instead, in the command line's words. */
  constructor(keeper: SessionKeeper, options: SignInOptions, fallbackHint: string) {
    this.#keeper = keeper;
    this.#options = options;
    this.instance = options.baseUrl.href.replace(/\/$/, "");
    this.fallbackHint = fallbackHint;
  }

  async ready(): Promise<boolean> {
    try {
      return (await this.#keeper.token()) !== undefined;
    } catch {
      return true; // the token endpoint is unreachable: the call fails with Bitbucket's own error
    }
  }

  async begin(): Promise<{ url: string; done: Promise<void> }> {
    if (this.#pending && !this.#pending.over) {
      return { url: this.#pending.sign.url.href, done: this.#pending.done };
    }
    const sign = await startSignIn(this.#options);
    const pending = {
      sign,
      over: false,
      done: sign.session.then((session) => this.#keeper.adopt(session)),
    };
    pending.done.catch(() => {}).finally(() => pending.over = true);
    this.#pending = pending;
    return { url: sign.url.href, done: pending.done };
  }

  async wait(signal: AbortSignal): Promise<void> {
    const pending = this.#pending;
    if (pending === undefined) throw new Error("no sign-in is under way");
    signal.throwIfAborted();
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error("the call was cancelled"));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([pending.done, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Stops a sign-in under way (the server is closing). */
  async close(): Promise<void> {
    await this.#pending?.sign.cancel();
  }
}
