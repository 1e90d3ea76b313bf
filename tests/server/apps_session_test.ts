/**
 * MCP Apps over 2025-era stateless HTTP (src/server/apps_session.ts): the
 * official v2 client, pinned to each 2025 revision the matrix serves over
 * HTTP, is offered and drawn views when its `initialize` declared the
 * extension, and sees exactly what it saw before when it did not; a request
 * carrying any other session id is served as one that declared nothing.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "mcp-sdk-1.32.2/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "mcp-sdk-1.32.2/client/streamableHttp.js";
import { startHttp } from "../support/http_server.ts";
import { MATRIX } from "../support/compatibility_matrix.ts";
import { APPS_CLIENT_CAPABILITIES } from "../../testing/harness.ts";
import { ALL_ROUTES } from "../../testing/cases/mod.ts";
import { PR_42_VIEW } from "../../testing/cases/views.ts";
import { NOTHING_SHOWN } from "../../src/tools/views/show.ts";
import { VIEW_TOOL, VIEW_URI } from "../../src/tools/kit/apps.ts";
import { APPS_SESSION_PREFIX, newAppsSessionId } from "../../src/server/apps_session.ts";

const TOKEN = "http-apps-session-token";
const VIEW_TOOLS = [VIEW_TOOL, "refresh_view"];
const SHOW_ARGS = { kind: "pull_request", ...PR_42_VIEW };

/** The 2025 revisions served over Streamable HTTP. */
const REVISIONS_2025 = MATRIX
  .filter((row) => row.transports.includes("HTTP") && row.revision < "2026")
  .map((row) => row.revision);

/** An apps session id as the server makes them: the prefix, then 32 hex digits. */
const APPS_SESSION_SHAPE = new RegExp(
  `^${APPS_SESSION_PREFIX.replaceAll(".", "\\.")}[0-9a-f]{32}$`,
);

/** The v2 client over HTTP, its `initialize` offering `revision` alone, declaring `capabilities`. */
async function connect2025(url: URL, revision: string, capabilities: Record<string, unknown>) {
  const client = new Client({ name: "apps-session-test", version: "0.0.0" }, {
    versionNegotiation: { mode: "legacy" },
    supportedProtocolVersions: [revision],
    capabilities,
  });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  assert.equal(client.getNegotiatedProtocolVersion(), revision);
  return { client, transport };
}

function viewToolsOf(tools: { name: string }[]): string[] {
  return tools.map((t) => t.name).filter((n) => VIEW_TOOLS.includes(n));
}

for (const revision of REVISIONS_2025) {
  Deno.test(`apps session (${revision}): a client declaring MCP Apps in initialize is listed and drawn views`, async () => {
    await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
    const { client, transport } = await connect2025(http.url, revision, APPS_CLIENT_CAPABILITIES);
    try {
      assert.match(transport.sessionId ?? "(none)", APPS_SESSION_SHAPE);
      const { tools } = await client.listTools();
      assert.deepEqual(viewToolsOf(tools), VIEW_TOOLS);
      const show = tools.find((t) => t.name === VIEW_TOOL);
      assert.equal(
        (show?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri,
        VIEW_URI,
      );

      const result = await client.callTool({ name: VIEW_TOOL, arguments: SHOW_ARGS });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const drawn = result.structuredContent as {
        shown?: boolean;
        view?: { pullRequest?: { id: number } };
      };
      assert.equal(drawn.shown, true);
      assert.equal(drawn.view?.pullRequest?.id, PR_42_VIEW.pr_id);
      assert.ok(http.fixture.requests.length > 0, "the view read Bitbucket");

      const page = await client.readResource({ uri: VIEW_URI });
      assert.equal(page.contents[0]?.uri, VIEW_URI);

      // The client ends the session with DELETE: the stateless server's 405 is accepted.
      await transport.terminateSession();
      assert.equal(transport.sessionId, undefined);
    } finally {
      await client.close();
    }
  });

  Deno.test(`apps session (${revision}): a client declaring nothing gets no session id and no view`, async () => {
    await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
    const { client, transport } = await connect2025(http.url, revision, {});
    try {
      assert.equal(transport.sessionId, undefined);
      assert.deepEqual(viewToolsOf((await client.listTools()).tools), []);
      const result = await client.callTool({ name: VIEW_TOOL, arguments: SHOW_ARGS });
      const text = (result.content as { type: string; text: string }[])[0]?.text;
      assert.equal(text, NOTHING_SHOWN);
      assert.deepEqual(http.fixture.requests, [], "nothing was fetched");
    } finally {
      await client.close();
    }
  });
}

Deno.test("apps session: the newest v1 SDK client (what hosts ship today) declaring MCP Apps is drawn views", async () => {
  await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
  const client = new ClientV1({ name: "apps-session-v1", version: "0.0.0" }, {
    capabilities: APPS_CLIENT_CAPABILITIES,
  });
  const transport = new HttpV1(http.url);
  await client.connect(transport);
  try {
    assert.match(transport.sessionId ?? "(none)", APPS_SESSION_SHAPE);
    assert.deepEqual(viewToolsOf((await client.listTools()).tools), VIEW_TOOLS);
    const result = await client.callTool({ name: VIEW_TOOL, arguments: SHOW_ARGS });
    assert.equal((result.structuredContent as { shown?: boolean }).shown, true);
    await transport.terminateSession();
  } finally {
    await client.close();
  }
});

/** One 2025-era JSON-RPC POST by hand, with `sessionId` as its Mcp-Session-Id when given. */
async function post(url: URL, body: unknown, sessionId?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": REVISIONS_2025.at(-1)!,
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // An answer streamed as server-sent events carries the message on its data line.
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return { response, message: JSON.parse(data) as { result?: { tools?: { name: string }[] } } };
}

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

Deno.test("apps session: a 2025-era request with any other session id is listed no view", async () => {
  await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
  // The control: a well-formed apps session id, made by no initialize, is taken at its word.
  const own = await post(http.url, LIST, newAppsSessionId());
  assert.deepEqual(viewToolsOf(own.message.result?.tools ?? []), VIEW_TOOLS);
  const hex = newAppsSessionId().slice(APPS_SESSION_PREFIX.length);
  const others = [
    crypto.randomUUID(),
    `bbmcp.apps.v2.${hex}`,
    `${APPS_SESSION_PREFIX}${hex.toUpperCase()}`,
    `${APPS_SESSION_PREFIX}${hex.slice(1)}`,
    `${APPS_SESSION_PREFIX}${hex}0`,
    ` ${APPS_SESSION_PREFIX}${hex}x`,
  ];
  for (const other of others) {
    const { response, message } = await post(http.url, LIST, other);
    assert.equal(response.status, 200, other);
    assert.ok(Array.isArray(message.result?.tools), other);
    assert.deepEqual(viewToolsOf(message.result!.tools!), [], other);
  }
  const none = await post(http.url, LIST);
  assert.deepEqual(viewToolsOf(none.message.result?.tools ?? []), []);
});

Deno.test("apps session: only an initialize declaring MCP Apps with the HTML profile opens one", async () => {
  await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
  const initialize = (capabilities: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: REVISIONS_2025.at(-1),
      capabilities,
      clientInfo: { name: "raw", version: "0.0.0" },
    },
  });
  const declared = await post(http.url, initialize(APPS_CLIENT_CAPABILITIES));
  assert.match(declared.response.headers.get("mcp-session-id") ?? "(none)", APPS_SESSION_SHAPE);
  const ui = Object.keys(APPS_CLIENT_CAPABILITIES.extensions)[0]!;
  for (
    const capabilities of [
      {},
      { extensions: {} },
      { extensions: { [ui]: {} } },
      { extensions: { [ui]: { mimeTypes: ["text/html"] } } },
    ]
  ) {
    const { response } = await post(http.url, initialize(capabilities));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("mcp-session-id"), null, JSON.stringify(capabilities));
  }
});
