/**
 * Verifying a bearer token with Bitbucket: the answer is trusted for
 * TOKEN_CACHE_SECONDS and no longer, at most TOKEN_CACHE_ENTRIES tokens are
 * remembered, `expiresAt` says when this server asks again, and a JWT naming
 * another audience is never sent to Bitbucket.
 */
import assert from "node:assert/strict";
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import {
  BitbucketTokenVerifier,
  statedAudience,
  TOKEN_CACHE_ENTRIES,
  TOKEN_CACHE_SECONDS,
} from "../../../src/server/oauth/verifier.ts";

const BITBUCKET = new URL("https://bitbucket.example.com/");
const RESOURCE = new URL("https://mcp.example.com/mcp");
const SCOPES = ["REPO_READ", "REPO_WRITE"];
const CLIENT_ID = "link-client-id";

/** A verifier whose Bitbucket knows `known` tokens (as `user-<token>`), with a clock the test moves. */
function setup(known: (token: string) => boolean = () => true) {
  const asked: string[] = [];
  const clock = { now: 1_000_000_000_000 };
  const verifier = new BitbucketTokenVerifier({
    bitbucket: BITBUCKET,
    clientId: CLIENT_ID,
    identify: (token) => {
      asked.push(token);
      return Promise.resolve(known(token) ? `user-${token}` : null);
    },
    scopes: SCOPES,
    now: () => clock.now,
  });
  return { verifier, asked, clock };
}

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  return `${part({ alg: "none" })}.${part(claims)}.`;
}

Deno.test("verifier: Bitbucket's answer is trusted for TOKEN_CACHE_SECONDS, then asked again", async () => {
  const { verifier, asked, clock } = setup();
  const info = await verifier.verify("t1", RESOURCE);
  assert.equal(info.extra?.user, "user-t1");
  assert.equal(info.expiresAt, clock.now / 1000 + TOKEN_CACHE_SECONDS);
  assert.deepEqual(info.scopes, SCOPES);
  clock.now += (TOKEN_CACHE_SECONDS - 1) * 1000;
  await verifier.verify("t1", RESOURCE);
  assert.equal(asked.length, 1, "within the window: from the cache");
  clock.now += 2000;
  await verifier.verify("t1", RESOURCE);
  assert.equal(asked.length, 2, "past the window: asked again");
});

Deno.test("verifier: at most TOKEN_CACHE_ENTRIES tokens are remembered, the oldest dropped first", async () => {
  const { verifier, asked } = setup();
  for (let i = 0; i <= TOKEN_CACHE_ENTRIES; i++) await verifier.verify(`t${i}`, RESOURCE);
  assert.equal(asked.length, TOKEN_CACHE_ENTRIES + 1);
  await verifier.verify(`t${TOKEN_CACHE_ENTRIES}`, RESOURCE);
  assert.equal(asked.length, TOKEN_CACHE_ENTRIES + 1, "the newest is still known");
  await verifier.verify("t0", RESOURCE);
  assert.equal(asked.length, TOKEN_CACHE_ENTRIES + 2, "the oldest was dropped");
});

Deno.test("verifier: a token Bitbucket refuses is invalid and not remembered", async () => {
  const { verifier, asked } = setup(() => false);
  for (let i = 0; i < 2; i++) {
    await assert.rejects(verifier.verify("bad", RESOURCE), (e) => e instanceof OAuthError);
  }
  assert.equal(asked.length, 2);
});

Deno.test("verifier: a JWT for another audience is not sent to Bitbucket; one for this server, Bitbucket or the link is", async () => {
  const { verifier, asked } = setup();
  const foreign = await verifier.verify(jwt({ aud: "https://other.example/mcp" }), RESOURCE);
  assert.notEqual(foreign.resource?.href, RESOURCE.href);
  assert.equal(asked.length, 0);
  const ours = [RESOURCE.href, BITBUCKET.href, CLIENT_ID, [RESOURCE.href, "x"]];
  for (const aud of ours) {
    const info = await verifier.verify(jwt({ aud }), RESOURCE);
    assert.equal(info.resource?.href, RESOURCE.href);
  }
  assert.equal(asked.length, ours.length);
  assert.equal(statedAudience("opaque-token"), undefined);
});

Deno.test("verifier: a write Bitbucket refused takes REPO_WRITE away from a token it still accepts", async () => {
  const { verifier } = setup();
  await verifier.verify("t1", RESOURCE);
  await verifier.refused("t1", true);
  assert.deepEqual((await verifier.verify("t1", RESOURCE)).scopes, ["REPO_READ"]);
  assert.deepEqual((await verifier.verify("t2", RESOURCE)).scopes, SCOPES);
});

Deno.test("verifier: when Bitbucket cannot tell, the request fails as a server error and nothing is remembered", async () => {
  const asked: string[] = [];
  const verifier = new BitbucketTokenVerifier({
    bitbucket: BITBUCKET,
    identify: (token) => {
      asked.push(token);
      return Promise.reject(new Error("connection refused"));
    },
    scopes: SCOPES,
  });
  for (let i = 0; i < 2; i++) {
    await assert.rejects(
      verifier.verify("t1", RESOURCE),
      (e) => e instanceof OAuthError && e.code === OAuthErrorCode.ServerError,
    );
  }
  assert.equal(asked.length, 2);
});
