/**
 * What the sign-in tests share: a scripted browser (it opens Bitbucket's
 * authorization page, consents as the fake provider's person, and follows
 * the redirect to the loopback listener), a session store held in memory,
 * and the options of a sign-in against the fake OAuth Bitbucket.
 */
import type { SignInOptions } from "../../src/auth/authorization.ts";
import type { Session } from "../../src/auth/session.ts";
import type { SessionStore } from "../../src/auth/store.ts";
import type { FakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";

/** The incoming link's client id the fake provider knows. */
export const LINK_ID = "link-client-id-33";

/** Opens `url` as a browser would (redirects followed); the page it ends on. */
export async function browse(url: string | URL): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { redirect: "follow" });
  return { status: response.status, text: await response.text() };
}

/** A store that keeps sessions in memory, counting its writes. */
export class MemoryStore implements SessionStore {
  readonly where = "memory";
  readonly sessions = new Map<string, Session>();
  saves = 0;
  load(url: string): Promise<Session | undefined> {
    return Promise.resolve(this.sessions.get(url));
  }
  save(session: Session): Promise<void> {
    this.saves++;
    this.sessions.set(session.url, session);
    return Promise.resolve();
  }
  remove(url: string): Promise<boolean> {
    return Promise.resolve(this.sessions.delete(url));
  }
}

/** A sign-in against the fake provider, asking for both scopes. */
export function fakeSignIn(
  fake: FakeOAuthBitbucket,
  extra: Partial<SignInOptions> = {},
): SignInOptions {
  return {
    baseUrl: new URL(fake.url),
    clientId: LINK_ID,
    scopes: ["REPO_READ", "REPO_WRITE"],
    timeoutMs: 5000,
    ...extra,
  };
}

/** Every token the fake issued, access and refresh alike: none may appear in any output. */
export function issuedSecrets(fake: FakeOAuthBitbucket): string[] {
  return [...fake.tokens.keys(), ...fake.refreshIssued];
}

/** A session signed in through the fake provider, as `login` would leave it. */
export async function signedIn(fake: FakeOAuthBitbucket): Promise<Session> {
  const { startSignIn } = await import("../../src/auth/authorization.ts");
  const pending = await startSignIn(fakeSignIn(fake));
  await browse(pending.url);
  return await pending.session;
}
