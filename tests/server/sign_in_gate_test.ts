/**
 * Signing in from inside the client (src/server/sign_in_gate.ts), with the
 * real v2 client on 2025-11-25 (elicitation/create, mode url, then the
 * completion notification) and 2026-07-28 (input_required with the URL
 * request): the person opens Bitbucket's page (a scripted browser), the call
 * goes on once the sign-in is done. A decline, and a client that cannot open
 * URLs, get an error naming the way to sign in, with nothing sent. A revoked
 * or expired token is refreshed without asking; a session Bitbucket ended
 * makes the call fail saying to sign in again.
 */
import assert from "node:assert/strict";
import type { ElicitRequest } from "@modelcontextprotocol/client";
import { startFakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";
import { repositories } from "../../testing/cases/repositories.ts";
import { firstText } from "../../testing/harness.ts";
import { browse, LINK_ID, MemoryStore, signedIn } from "../support/sign_in.ts";
import { connectSession, FALLBACK } from "../support/signed_in_server.ts";

const CALL = { name: "get_repository", arguments: { project: "PROJ", repo: "web" } };
const REPO_PATH = "/api/latest/projects/PROJ/repos/web";

function fakeBitbucket(accessTokenSeconds?: number) {
  return startFakeOAuthBitbucket({
    routes: repositories.routes,
    clientId: LINK_ID,
    user: "bwilson",
    ...(accessTokenSeconds ? { accessTokenSeconds } : {}),
  });
}

const reachedRepo = (fake: ReturnType<typeof fakeBitbucket>) =>
  fake.upstream.requests.filter((r) => r.path === REPO_PATH);

for (const era of ["legacy", "modern"] as const) {
  const revision = era === "legacy" ? "2025-11-25" : "2026-07-28";
  Deno.test(`sign-in gate, ${revision}: not signed in, the person opens Bitbucket's page from the client, and the call goes on`, async () => {
    const fake = fakeBitbucket();
    const asked: ElicitRequest[] = [];
    try {
      await using s = await connectSession(fake, {
        era,
        openUrl: async (request) => {
          asked.push(request);
          const params = request.params as { mode?: string; url?: string };
          assert.equal(params.mode, "url");
          assert.equal((await browse(params.url!)).status, 200);
          return { action: "accept" };
        },
      });
      const result = await s.client.callTool(CALL);
      assert.notEqual(result.isError, true, firstText(result));
      assert.equal(asked.length, 1);
      const params = asked[0]!.params as { url: string; message: string; elicitationId?: string };
      assert.ok(params.url.startsWith(`${fake.url}/rest/oauth2/latest/authorize?`), params.url);
      assert.match(params.message, /Sign in to Bitbucket at/);
      const [reached] = reachedRepo(fake);
      const bearer = reached?.headers?.authorization?.replace(/^Bearer /, "");
      assert.equal(fake.tokens.get(bearer ?? "")?.user, "bwilson", "sent as the person");
      assert.equal(s.store.saves, 1, "the session is kept");
      if (era === "legacy") {
        assert.ok(params.elicitationId, "2025-11-25 carries an elicitation id");
        assert.deepEqual(s.completed, [params.elicitationId], "and its completion is told");
      }
    } finally {
      await fake.close();
    }
  });

  Deno.test(`sign-in gate, ${revision}: declining is an error naming the way to sign in; nothing reaches Bitbucket`, async () => {
    const fake = fakeBitbucket();
    try {
      await using s = await connectSession(fake, { era, openUrl: () => ({ action: "decline" }) });
      const result = await s.client.callTool(CALL);
      assert.equal(result.isError, true);
      assert.match(firstText(result), /the person declined signing in to Bitbucket/);
      assert.ok(firstText(result).includes(FALLBACK));
      assert.deepEqual(fake.upstream.requests, []);
    } finally {
      await fake.close();
    }
  });

  Deno.test(`sign-in gate, ${revision}: a client that cannot open URLs gets an error naming bitbucket-mcp login`, async () => {
    const fake = fakeBitbucket();
    try {
      await using s = await connectSession(fake, { era });
      const result = await s.client.callTool(CALL);
      assert.equal(result.isError, true);
      assert.match(firstText(result), /cannot open a sign-in page \(URL elicitation/);
      assert.ok(firstText(result).includes(FALLBACK));
      assert.deepEqual(fake.upstream.requests, []);
      assert.deepEqual(fake.authorizations, [], "no sign-in was started");
    } finally {
      await fake.close();
    }
  });
}

Deno.test("sign-in gate: an expired access token is refreshed without asking the person", async () => {
  const fake = fakeBitbucket(30);
  try {
    const store = new MemoryStore();
    const session = await signedIn(fake);
    await store.save(session);
    await using s = await connectSession(fake, {
      era: "modern",
      store,
      openUrl: () => {
        throw new Error("the person must not be asked");
      },
    });
    const result = await s.client.callTool(CALL);
    assert.notEqual(result.isError, true, firstText(result));
    assert.ok(fake.tokenRequests.some((r) => r.fields.grant_type === "refresh_token"));
    assert.notEqual(store.sessions.get(session.url)?.accessToken, session.accessToken);
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in gate: a token Bitbucket revoked is refreshed after its 401 and the request sent again", async () => {
  const fake = fakeBitbucket();
  try {
    const store = new MemoryStore();
    const session = await signedIn(fake);
    await store.save(session);
    fake.tokens.delete(session.accessToken);
    await using s = await connectSession(fake, { era: "modern", store });
    const result = await s.client.callTool(CALL);
    assert.notEqual(result.isError, true, firstText(result));
    assert.equal(reachedRepo(fake).length, 1);
    assert.ok(fake.refused.length >= 1, "the revoked token was refused first");
  } finally {
    await fake.close();
  }
});

Deno.test("sign-in gate: a session Bitbucket ended fails the call saying to sign in again, then the next call asks", async () => {
  const fake = fakeBitbucket();
  try {
    const store = new MemoryStore();
    const session = await signedIn(fake);
    await store.save(session);
    fake.tokens.delete(session.accessToken);
    fake.refreshTokens.clear();
    let asked = 0;
    await using s = await connectSession(fake, {
      era: "modern",
      store,
      openUrl: () => {
        asked++;
        return { action: "decline" };
      },
    });
    const first = await s.client.callTool(CALL);
    assert.equal(first.isError, true);
    assert.match(firstText(first), /401/);
    assert.equal(asked, 0);
    assert.equal(store.sessions.size, 0, "the ended session is forgotten");
    const second = await s.client.callTool(CALL);
    assert.equal(second.isError, true);
    assert.equal(asked, 1, "the next call offers the sign-in");
  } finally {
    await fake.close();
  }
});
