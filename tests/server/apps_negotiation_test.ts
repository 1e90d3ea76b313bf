import assert from "node:assert/strict";
import { connectHttp, startHttp } from "../support/http_server.ts";
import { MATRIX } from "../support/compatibility_matrix.ts";
import { APPS_CLIENT_CAPABILITIES } from "../../testing/harness.ts";
import { ALL_ROUTES } from "../../testing/cases/mod.ts";
import { PR_42_VIEW } from "../../testing/cases/views.ts";
import { NOTHING_SHOWN } from "../../src/tools/views/show.ts";
import { VIEW_TOOL } from "../../src/tools/kit/apps.ts";

const TOKEN = "http-apps-token";
const VIEW_TOOLS = [VIEW_TOOL, "refresh_view"];
/** The newest 2025 revision the matrix serves over HTTP. */
const LATEST_2025 = MATRIX.filter((row) => row.transports.includes("HTTP") && row.revision < "2026")
  .at(-1)!.revision;

/** The view tools a client of `era` is listed over HTTP, declaring MCP Apps or not. */
async function viewToolsListed(era: "modern" | "legacy", apps: boolean) {
  await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
  const client = await connectHttp(
    http.url,
    era,
    undefined,
    undefined,
    apps ? APPS_CLIENT_CAPABILITIES : {},
  );
  try {
    const { tools } = await client.listTools();
    const caps = client.getServerCapabilities() as
      | { extensions?: Record<string, unknown> }
      | undefined;
    return { names: tools.map((t) => t.name).filter((n) => VIEW_TOOLS.includes(n)), caps };
  } finally {
    await client.close();
  }
}

Deno.test("apps over HTTP (2026-07-28): the request's own capabilities decide, per request", async () => {
  const declared = await viewToolsListed("modern", true);
  assert.deepEqual(declared.names, VIEW_TOOLS);
  assert.deepEqual((await viewToolsListed("modern", false)).names, []);
});

Deno.test("apps over HTTP (2025 era, stateless): the declaration rides on the session id; a request without it gets no view", async () => {
  // src/server/apps_session.ts: initialize's declaration comes back on every later request.
  assert.deepEqual((await viewToolsListed("legacy", true)).names, VIEW_TOOLS);
  assert.deepEqual((await viewToolsListed("legacy", false)).names, []);
  await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
  // A 2025-era call without the session id: no instance knows what its client declared.
  const response = await fetch(http.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_2025,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: VIEW_TOOL, arguments: { kind: "pull_request", ...PR_42_VIEW } },
    }),
  });
  const text = await response.text();
  const message = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text);
  assert.notEqual(message.result?.isError, true);
  assert.equal(message.result?.content?.[0]?.text, NOTHING_SHOWN);
  assert.deepEqual(http.fixture.requests, [], "nothing was fetched");
});

Deno.test("apps over HTTP (2026-07-28): a view is drawn for a client declaring the extension", async () => {
  await using http = startHttp({ routes: ALL_ROUTES, serverToken: TOKEN });
  const client = await connectHttp(
    http.url,
    "modern",
    undefined,
    undefined,
    APPS_CLIENT_CAPABILITIES,
  );
  try {
    const result = await client.callTool({
      name: VIEW_TOOL,
      arguments: { kind: "pull_request", ...PR_42_VIEW },
    });
    const view = (result.structuredContent as { view?: { pullRequest?: { id: number } } }).view;
    assert.equal(view?.pullRequest?.id, PR_42_VIEW.pr_id);
  } finally {
    await client.close();
  }
});
