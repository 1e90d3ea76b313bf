/**
 * The discovery documents a client reads before signing in: Protected
 * Resource Metadata at the path-aware and root URIs naming this server's
 * origin, and there an RFC 8414 document with Bitbucket's endpoints, PKCE
 * S256, the scopes the exposed tools need, and no registration endpoint.
 */
import assert from "node:assert/strict";
import { selectTools } from "../../../src/policy/selection.ts";
import { createHttpHandler, MCP_PATH } from "../../../src/server/http.ts";
import {
  AS_METADATA_PATH,
  PRM_ROOT_PATH,
  READ_SCOPE,
  WRITE_SCOPE,
} from "../../../src/server/oauth/metadata.ts";
import type { OAuthSettings } from "../../../src/server/oauth/gate.ts";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";

const BITBUCKET = new URL("https://bitbucket.example.com/context");
const PUBLIC: OAuthSettings = { clientId: "link-id", confidential: false };

/** A handler (no listener: requests are handed to it) with sign-in as `oauth` (null: off). */
function handler(readOnly: boolean, oauth: OAuthSettings | null = PUBLIC) {
  return createHttpHandler({
    tools: selectTools(CATALOGUE, { readOnly }),
    config: { baseUrl: BITBUCKET, timeoutMs: 1000 },
    listenHostname: "127.0.0.1",
    allowHosts: ["mcp.example.com"],
    oauth: oauth ?? undefined,
  });
}

async function getJson(
  h: ReturnType<typeof handler>,
  url: string,
  headers: Record<string, string> = {},
) {
  const host = new URL(url).host;
  const response = await h.fetch(new Request(url, { headers: { host, ...headers } }));
  return { status: response.status, body: await response.json() };
}

Deno.test("OAuth metadata: PRM at the path-aware and root URIs names this origin as the authorization server", async () => {
  const h = handler(false);
  const origin = "http://127.0.0.1:8080";
  for (const path of [`${PRM_ROOT_PATH}${MCP_PATH}`, PRM_ROOT_PATH]) {
    const { status, body } = await getJson(h, `${origin}${path}`);
    assert.equal(status, 200, path);
    assert.equal(body.resource, `${origin}${MCP_PATH}`, path);
    assert.deepEqual(body.authorization_servers, [origin], path);
    assert.deepEqual(body.scopes_supported, [READ_SCOPE, WRITE_SCOPE], path);
  }
  await h.close();
});

Deno.test("OAuth metadata: the RFC 8414 document has Bitbucket's endpoints, S256, both grants and no registration", async () => {
  const h = handler(false);
  const origin = "http://127.0.0.1:8080";
  const { status, body } = await getJson(h, `${origin}${AS_METADATA_PATH}`);
  assert.equal(status, 200);
  assert.equal(body.issuer, origin);
  assert.equal(body.authorization_endpoint, `${BITBUCKET.href}/rest/oauth2/latest/authorize`);
  assert.equal(body.token_endpoint, `${BITBUCKET.href}/rest/oauth2/latest/token`);
  assert.deepEqual(body.code_challenge_methods_supported, ["S256"]);
  assert.deepEqual(body.grant_types_supported, ["authorization_code", "refresh_token"]);
  assert.deepEqual(body.scopes_supported, [READ_SCOPE, WRITE_SCOPE]);
  assert.equal("registration_endpoint" in body, false);
  assert.deepEqual(body.token_endpoint_auth_methods_supported, ["none"]);
  await h.close();
});

Deno.test("OAuth metadata: with --read-only the scopes are REPO_READ alone", async () => {
  const h = handler(true);
  for (const path of [PRM_ROOT_PATH, AS_METADATA_PATH]) {
    const { body } = await getJson(h, `http://127.0.0.1:8080${path}`);
    assert.deepEqual(body.scopes_supported, [READ_SCOPE], path);
  }
  await h.close();
});

Deno.test("OAuth metadata: a confidential link says clients authenticate at the token endpoint", async () => {
  const h = handler(false, { clientId: "link-id", confidential: true });
  const { body } = await getJson(h, `http://127.0.0.1:8080${AS_METADATA_PATH}`);
  assert.ok(body.token_endpoint_auth_methods_supported.includes("client_secret_post"));
  assert.ok(!body.token_endpoint_auth_methods_supported.includes("none"));
  await h.close();
});

Deno.test("OAuth metadata: behind a TLS proxy the documents name the public https origin", async () => {
  const h = handler(false);
  const { body } = await getJson(h, `http://mcp.example.com${PRM_ROOT_PATH}${MCP_PATH}`, {
    "x-forwarded-proto": "https",
  });
  assert.equal(body.resource, `https://mcp.example.com${MCP_PATH}`);
  assert.deepEqual(body.authorization_servers, ["https://mcp.example.com"]);
  await h.close();
});

Deno.test("OAuth metadata: a Host not allowed is refused; without sign-in the documents do not exist", async () => {
  const h = handler(false);
  const foreign = await getJson(h, `http://rebound.evil.example${PRM_ROOT_PATH}`);
  assert.equal(foreign.status, 403);
  await h.close();
  const off = handler(false, null);
  for (const path of [PRM_ROOT_PATH, `${PRM_ROOT_PATH}${MCP_PATH}`, AS_METADATA_PATH]) {
    assert.equal((await getJson(off, `http://127.0.0.1:8080${path}`)).status, 404, path);
  }
  await off.close();
});
