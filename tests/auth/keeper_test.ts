/**
 * The session of a running process (src/auth/keeper.ts) against the fake
 * provider: an access token about to expire is refreshed first, the rotated
 * refresh token replaces the old one (which Bitbucket then refuses) and is
 * stored; a refused refresh ends the session and clears the store, unless
 * another process already stored the rotated tokens; a 401 refreshes at once.
 */
import assert from "node:assert/strict";
import { SessionKeeper } from "../../src/auth/keeper.ts";
import { startFakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";
import { fakeSignIn, LINK_ID, MemoryStore, signedIn } from "../support/sign_in.ts";

function keeperOf(fake: ReturnType<typeof startFakeOAuthBitbucket>, store: MemoryStore) {
  const logged: string[] = [];
  const keeper = new SessionKeeper({
    ...fakeSignIn(fake),
    store,
    initial: store.sessions.get(new URL(fake.url).href),
    log: (level, message) => logged.push(`${level}: ${message}`),
  });
  return { keeper, logged };
}

Deno.test("keeper: a token about to expire is refreshed before use; the rotated refresh token is stored and the old one is refused", async () => {
  // Tokens that live 30 s are always within the keeper's one-minute margin.
  const fake = startFakeOAuthBitbucket({
    routes: [],
    clientId: LINK_ID,
    user: "bwilson",
    accessTokenSeconds: 30,
  });
  try {
    const first = await signedIn(fake);
    const store = new MemoryStore();
    await store.save(first);
    const { keeper } = keeperOf(fake, store);
    const token = await keeper.token();
    assert.ok(token && token !== first.accessToken, "a new access token");
    const refresh = fake.tokenRequests.at(-1)!;
    assert.equal(refresh.fields.grant_type, "refresh_token");
    assert.equal(refresh.fields.refresh_token, first.refreshToken);
    assert.equal(refresh.fields.redirect_uri, first.redirectUri, "Bitbucket checks it again");
    const kept = store.sessions.get(first.url)!;
    assert.equal(kept.accessToken, token);
    assert.notEqual(kept.refreshToken, first.refreshToken, "rotated");
    assert.ok(fake.refreshTokens.has(kept.refreshToken!));
    assert.ok(!fake.refreshTokens.has(first.refreshToken!), "the old one is spent");
    assert.equal(kept.user, "bwilson", "what was known is kept");
  } finally {
    await fake.close();
  }
});

Deno.test("keeper: two callers at once share one refresh", async () => {
  const fake = startFakeOAuthBitbucket({
    routes: [],
    clientId: LINK_ID,
    user: "bwilson",
    accessTokenSeconds: 30,
  });
  try {
    const store = new MemoryStore();
    await store.save(await signedIn(fake));
    const { keeper } = keeperOf(fake, store);
    const before = fake.tokenRequests.length;
    const [a, b] = await Promise.all([keeper.token(), keeper.token()]);
    assert.equal(a, b);
    assert.equal(fake.tokenRequests.length - before, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("keeper: a refresh Bitbucket refuses ends the session, clears the store and says why without a token", async () => {
  const fake = startFakeOAuthBitbucket({
    routes: [],
    clientId: LINK_ID,
    user: "bwilson",
    accessTokenSeconds: 30,
  });
  try {
    const session = await signedIn(fake);
    const store = new MemoryStore();
    await store.save(session);
    fake.refreshTokens.clear(); // revoked in Bitbucket, or past its 90 days
    const { keeper, logged } = keeperOf(fake, store);
    assert.equal(await keeper.token(), undefined);
    assert.equal(store.sessions.size, 0);
    assert.match(logged.join("\n"), /the signed-in session ended: .*invalid_grant/);
    for (const secret of [session.accessToken, session.refreshToken!]) {
      assert.ok(!logged.join("\n").includes(secret));
    }
  } finally {
    await fake.close();
  }
});

Deno.test("keeper: when another process rotated the refresh token first, its stored tokens are used", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: "bwilson" });
  try {
    const session = await signedIn(fake);
    const store = new MemoryStore();
    await store.save({ ...session, expiresAt: 0 });
    const { keeper: mine } = keeperOf(fake, store);
    // The other process refreshes (rotating the token) and stores the result.
    const other = new SessionKeeper({
      ...fakeSignIn(fake),
      store,
      initial: { ...session, expiresAt: 0 },
    });
    const theirs = await other.token();
    assert.equal(await mine.token(), theirs);
  } finally {
    await fake.close();
  }
});

Deno.test("keeper: an expired session without a refresh token is no session", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: "bwilson" });
  try {
    const { refreshToken: _none, ...session } = await signedIn(fake);
    const store = new MemoryStore();
    await store.save({ ...session, expiresAt: Date.now() - 1000 });
    const { keeper } = keeperOf(fake, store);
    assert.equal(await keeper.token(), undefined);
  } finally {
    await fake.close();
  }
});

Deno.test("keeper: a session of another incoming link is not this one's", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: "bwilson" });
  try {
    const session = await signedIn(fake);
    const keeper = new SessionKeeper({
      ...fakeSignIn(fake, { clientId: "another-link" }),
      store: new MemoryStore(),
      initial: session,
    });
    assert.equal(await keeper.token(), undefined);
  } finally {
    await fake.close();
  }
});
