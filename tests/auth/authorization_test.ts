/**
 * One sign-in (src/auth/authorization.ts) against the fake Bitbucket OAuth
 * provider, with a scripted browser: the page is Bitbucket's authorize
 * endpoint with PKCE S256 and a state, the redirect lands on 127.0.0.1, the
 * code is traded with its verifier, and the session names the person. A
 * redirect with another state is ignored; a refusal and a sign-in nobody
 * finishes end it with the reason.
 */
import assert from "node:assert/strict";
import { startSignIn } from "../../src/auth/authorization.ts";
import { s256Challenge } from "../../src/auth/pkce.ts";
import { SignInError } from "../../src/auth/token_endpoint.ts";
import { startFakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";
import { freePort } from "../../testing/free_port.ts";
import { browse, fakeSignIn, LINK_ID } from "../support/sign_in.ts";

const PERSON = "bwilson";

Deno.test("sign-in: the page is Bitbucket's authorize endpoint with PKCE S256, the redirect lands on 127.0.0.1, and the session names the person", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: PERSON });
  try {
    const pending = await startSignIn(fakeSignIn(fake));
    assert.equal(
      pending.url.origin + pending.url.pathname,
      `${fake.url}/rest/oauth2/latest/authorize`,
    );
    assert.match(pending.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = await browse(pending.url);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`Signed in to Bitbucket as ${PERSON}`));
    const session = await pending.session;
    const [asked] = fake.authorizations;
    assert.equal(asked?.client_id, LINK_ID);
    assert.equal(asked?.code_challenge_method, "S256");
    assert.equal(asked?.scope, "REPO_READ REPO_WRITE");
    assert.equal(asked?.redirect_uri, pending.redirectUri);
    const exchange = fake.tokenRequests[0]!.fields;
    assert.equal(exchange.grant_type, "authorization_code");
    assert.equal(await s256Challenge(exchange.code_verifier!), asked?.code_challenge);
    assert.equal(session.user, PERSON);
    assert.equal(session.url, new URL(fake.url).href);
    assert.equal(session.redirectUri, pending.redirectUri);
    assert.ok(fake.tokens.has(session.accessToken), "the access token is one Bitbucket issued");
    assert.ok(fake.refreshTokens.has(session.refreshToken!), "with its refresh token");
    assert.deepEqual(session.scopes, ["REPO_READ", "REPO_WRITE"]);
    assert.ok(session.expiresAt > Date.now());
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in: a redirect with another state is refused and ignored; the real one still signs in", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: PERSON });
  try {
    const pending = await startSignIn(fakeSignIn(fake));
    const forged = await browse(`${pending.redirectUri}?code=forged-code&state=not-the-state`);
    assert.equal(forged.status, 400);
    assert.match(forged.text, /state does not match/);
    assert.deepEqual(fake.tokenRequests, [], "nothing was traded");
    assert.equal((await browse(pending.url)).status, 200);
    assert.equal((await pending.session).user, PERSON);
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in: the person refusing at Bitbucket ends the sign-in with Bitbucket's reason", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: PERSON });
  try {
    const pending = await startSignIn(fakeSignIn(fake));
    const state = pending.url.searchParams.get("state")!;
    const denied = await browse(`${pending.redirectUri}?error=access_denied&state=${state}`);
    assert.equal(denied.status, 400);
    await assert.rejects(pending.session, (error: Error) => {
      assert.ok(error instanceof SignInError);
      assert.equal(error.code, "access_denied");
      return true;
    });
    assert.deepEqual(fake.tokenRequests, []);
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in: a fixed redirect port is the redirect URL's, for a link that names it exactly", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: PERSON });
  try {
    const port = await freePort();
    const pending = await startSignIn(fakeSignIn(fake, { redirectPort: port }));
    assert.equal(pending.redirectUri, `http://127.0.0.1:${port}/callback`);
    await browse(pending.url);
    assert.equal((await pending.session).redirectUri, pending.redirectUri);
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in: one nobody finishes ends after its wait, and its listener closes", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: PERSON });
  try {
    const pending = await startSignIn(fakeSignIn(fake, { waitMs: 50 }));
    await assert.rejects(pending.session, /nobody finished signing in/);
    await assert.rejects(fetch(pending.redirectUri), "the listener is closed");
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in: a code Bitbucket will not trade ends it, and the page says so", async () => {
  const fake = startFakeOAuthBitbucket({ routes: [], clientId: LINK_ID, user: PERSON });
  try {
    const pending = await startSignIn(fakeSignIn(fake, { clientId: "another-link" }));
    const state = pending.url.searchParams.get("state")!;
    const page = await browse(`${pending.redirectUri}?code=code-nobody-issued&state=${state}`);
    assert.equal(page.status, 502);
    await assert.rejects(
      pending.session,
      /token endpoint refused the sign-in's code: invalid_client/,
    );
  } finally {
    await fake.close();
  }
});
