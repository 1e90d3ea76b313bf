/**
 * Sign-in with Bitbucket over HTTP, as a person's client meets it: the
 * official v2 client discovers the sign-in from the 401, signs in at a fake
 * Bitbucket OAuth provider (PKCE S256, `resource`), and calls tools as that
 * person; tokens Bitbucket does not vouch for, or meant for someone else, are
 * refused with the SDK's challenges; a write Bitbucket refused is challenged
 * for REPO_WRITE.
 */
import assert from "node:assert/strict";
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { selectTools } from "../../../src/policy/selection.ts";
import { serveHttp } from "../../../src/server/http.ts";
import { scopesFor, WRITE_SCOPE } from "../../../src/server/oauth/metadata.ts";
import { WHO_AM_I_PATH } from "../../../src/bitbucket/token_user.ts";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";
import { Confirmations } from "../../../src/policy/confirmation.ts";
import { refs } from "../../../testing/cases/refs.ts";
import {
  type FakeOAuthBitbucket,
  type FakeOAuthOptions,
  s256,
  startFakeOAuthBitbucket,
} from "../../../testing/fixture_oauth.ts";
import { finishSignIn, ScriptedSignIn, signInAndConnect } from "../../support/oauth_client.ts";

const CLIENT_ID = "incoming-link-client-id";
const USER = "alice";
const TOOLS = selectTools(CATALOGUE, { readOnly: false });
const READ = refs.toolArguments.list_tags!;
const WRITE = refs.toolArguments.create_branch!;
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};

interface Setup {
  fake: FakeOAuthBitbucket;
  url: URL;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The HTTP mode with sign-in on, in front of a fake Bitbucket OAuth provider;
 * `serverToken` as BITBUCKET_TOKEN, `consent` what the person grants.
 */
function startOAuth(serverToken?: string, consent?: FakeOAuthOptions["consent"]): Setup {
  const fake = startFakeOAuthBitbucket({
    routes: refs.routes,
    clientId: CLIENT_ID,
    user: USER,
    consent,
  });
  const server = serveHttp({
    tools: TOOLS,
    policy: { unsafeWrites: true, confirmations: new Confirmations({}) },
    config: { baseUrl: new URL(fake.url), token: serverToken, timeoutMs: 5000 },
    address: { hostname: "127.0.0.1", port: 0 },
    oauth: { clientId: CLIENT_ID, confidential: false },
  });
  return {
    fake,
    url: server.url,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await fake.close();
    },
  };
}

/** The PRM URL a challenge must name for the MCP endpoint `url`. */
function metadataUrl(url: URL): string {
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}

/** A raw initialize with `authorization` (none when undefined). */
async function post(url: URL, authorization?: string, body: unknown = INITIALIZE) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, challenge: response.headers.get("www-authenticate"), text };
}

/** Requests the fixture Bitbucket behind the fake saw with `token`. */
function seenWith(fake: FakeOAuthBitbucket, token: string) {
  return fake.upstream.requests.filter((r) => r.headers.authorization === `Bearer ${token}`);
}

Deno.test("OAuth: the official client signs in with PKCE S256 and the resource, then calls tools as that user", async () => {
  await using s = startOAuth();
  const provider = new ScriptedSignIn(CLIENT_ID);
  const { client } = await signInAndConnect(s.url, provider);
  try {
    const result = await client.callTool({ name: "list_tags", arguments: READ.args });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const written = await client.callTool({ name: "create_branch", arguments: WRITE.args });
    assert.equal(written.isError, undefined, JSON.stringify(written.content));
  } finally {
    await client.close();
  }
  // What the provider was sent: one authorization, PKCE S256, this server as the resource.
  assert.equal(s.fake.authorizations.length, 1);
  const [authorize] = s.fake.authorizations;
  assert.equal(authorize!.client_id, CLIENT_ID);
  assert.equal(authorize!.code_challenge_method, "S256");
  assert.equal(authorize!.resource, s.url.href);
  assert.equal(authorize!.scope, scopesFor(TOOLS).join(" "));
  // The code was exchanged with the verifier whose S256 is the challenge.
  const exchange = s.fake.tokenRequests.find((r) => r.fields.grant_type === "authorization_code");
  assert.equal(exchange?.status, 200);
  assert.equal(await s256(exchange!.fields.code_verifier!), authorize!.code_challenge);
  // Bitbucket saw the person's own token on the tool's requests, and it is this user's.
  const [issued] = [...s.fake.tokens.entries()];
  assert.equal(issued![1].user, USER);
  const seen = seenWith(s.fake, issued![0]).map((r) => `${r.method} ${r.path}`);
  for (const call of [...READ.requests, ...WRITE.requests]) {
    assert.ok(seen.includes(`${call.method} ${call.path}`), `${call.path} in ${seen}`);
  }
  assert.deepEqual(s.fake.upstream.unmatched, []);
});

Deno.test("OAuth: a token Bitbucket stops accepting is refused with 401, and the client refreshes it", async () => {
  await using s = startOAuth();
  const provider = new ScriptedSignIn(CLIENT_ID);
  const { client } = await signInAndConnect(s.url, provider);
  try {
    const first = provider.tokens()!.access_token;
    s.fake.tokens.get(first)!.expiresAt = Date.now(); // expired at Bitbucket
    // The call in flight when Bitbucket refuses it fails; the server forgets the token at once.
    const failed = await client.callTool({ name: "list_tags", arguments: READ.args });
    assert.equal(failed.isError, true);
    const after = await client.callTool({ name: "list_tags", arguments: READ.args });
    assert.equal(after.isError, undefined, JSON.stringify(after.content));
    assert.notEqual(provider.tokens()!.access_token, first, "a new token");
  } finally {
    await client.close();
  }
  const refresh = s.fake.tokenRequests.filter((r) => r.fields.grant_type === "refresh_token");
  assert.equal(refresh.length, 1);
  assert.equal(refresh[0]!.status, 200);
});

Deno.test("OAuth: no token, or BITBUCKET_TOKEN alone, is refused with 401 naming the resource metadata", async () => {
  const serverToken = "server-wide-SECRET";
  await using s = startOAuth(serverToken);
  const answer = await post(s.url);
  assert.equal(answer.status, 401);
  assert.match(answer.challenge ?? "", /^Bearer error="invalid_token"/);
  assert.ok(
    answer.challenge?.includes(`resource_metadata="${metadataUrl(s.url)}"`),
    answer.challenge!,
  );
  assert.deepEqual(
    seenWith(s.fake, serverToken),
    [],
    "the server-wide token never reaches Bitbucket",
  );
  assert.equal(s.fake.upstream.requests.length, 0);
});

Deno.test("OAuth: unknown, expired and wrong-audience tokens are refused with 401 and resource_metadata", async () => {
  await using s = startOAuth();
  const expired = s.fake.issue(USER, scopesFor(TOOLS), 0);
  const header = btoa(JSON.stringify({ alg: "none" }));
  const foreign = `${header}.${
    btoa(JSON.stringify({ aud: "https://other.example/mcp", sub: USER }))
  }.`;
  for (
    const [why, token, says] of [
      ["unknown", "never-issued-token", /unknown, expired or revoked/],
      ["expired", expired, /unknown, expired or revoked/],
      ["wrong audience", foreign, /not issued for this resource/],
    ] as const
  ) {
    const answer = await post(s.url, `Bearer ${token}`);
    assert.equal(answer.status, 401, why);
    assert.match(answer.challenge ?? "", /error="invalid_token"/, why);
    assert.ok(answer.challenge?.includes(`resource_metadata="${metadataUrl(s.url)}"`), why);
    assert.match(answer.text, says, why);
  }
  // A token meant for another server is never sent to Bitbucket.
  const sentForeign = s.fake.refused.length + s.fake.upstream.requests.length;
  assert.equal(sentForeign, 2, "only the unknown and the expired token were asked about");
});

Deno.test("OAuth: a write Bitbucket refused for lack of REPO_WRITE is challenged with 403 insufficient_scope", async () => {
  await using s = startOAuth();
  const readOnly = s.fake.issue("bob", ["REPO_READ"]);
  const responses: { status: number; challenge: string | null }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    responses.push({
      status: response.status,
      challenge: response.headers.get("www-authenticate"),
    });
    return response;
  };
  const client = new Client({ name: "pat", version: "0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(s.url, {
      authProvider: { token: () => Promise.resolve(readOnly) },
      fetch: recording,
    }),
  );
  try {
    // Reads work: the token is good.
    const read = await client.callTool({ name: "list_tags", arguments: READ.args });
    assert.equal(read.isError, undefined);
    // The first write reaches Bitbucket, which refuses it.
    const refused = await client.callTool({ name: "create_branch", arguments: WRITE.args });
    assert.equal(refused.isError, true);
    // The next is answered 403 before it runs, asking for the scopes a write needs.
    await assert.rejects(client.callTool({ name: "create_branch", arguments: WRITE.args }));
  } finally {
    await client.close();
  }
  const last = responses.at(-1)!;
  assert.equal(last.status, 403);
  assert.match(last.challenge ?? "", /^Bearer error="insufficient_scope"/);
  assert.ok(last.challenge?.includes(`scope="${scopesFor(TOOLS).join(" ")}"`), last.challenge!);
  assert.ok(last.challenge?.includes(WRITE_SCOPE));
  assert.ok(last.challenge?.includes(`resource_metadata="${metadataUrl(s.url)}"`), last.challenge!);
  const writes = s.fake.refused.filter((r) => r.path === WRITE.requests[0]!.path);
  assert.equal(writes.length, 1, "the challenged write never reached Bitbucket");
});

Deno.test("OAuth: challenged for REPO_WRITE, the official client signs in again asking for it, and the write goes through", async () => {
  // The first sign-in grants reads only (the person, or the link, narrowed it); later ones all.
  await using s = startOAuth(undefined, (requested, n) => n === 0 ? ["REPO_READ"] : requested);
  const provider = new ScriptedSignIn(CLIENT_ID);
  const first = await signInAndConnect(s.url, provider);
  let second;
  try {
    const refused = await first.client.callTool({ name: "create_branch", arguments: WRITE.args });
    assert.equal(refused.isError, true, "Bitbucket refused the write");
    await assert.rejects(
      first.client.callTool({ name: "create_branch", arguments: WRITE.args }),
      UnauthorizedError,
      "the 403 sent the person to sign in again",
    );
    second = await finishSignIn(s.url, provider, first.transport);
    const written = await second.client.callTool({ name: "create_branch", arguments: WRITE.args });
    assert.equal(written.isError, undefined, JSON.stringify(written.content));
  } finally {
    await first.client.close();
    await second?.client.close();
  }
  assert.deepEqual(s.fake.authorizations.map((a) => a.scope), [
    scopesFor(TOOLS).join(" "),
    scopesFor(TOOLS).join(" "),
  ]);
});

Deno.test("OAuth: a token is verified with Bitbucket once, then served from the cache", async () => {
  await using s = startOAuth();
  const token = s.fake.issue(USER, scopesFor(TOOLS));
  for (let i = 0; i < 3; i++) assert.equal((await post(s.url, `Bearer ${token}`)).status, 200);
  assert.equal(seenWith(s.fake, token).filter((r) => r.path === WHO_AM_I_PATH).length, 1);
});
