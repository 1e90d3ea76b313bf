/**
 * Asking the person in HTTP mode (src/tools/confirmation.ts behind
 * src/server/http.ts): per request on 2026-07-28, refused on a stateless
 * 2025-era request, and a signed state shared across instances by key.
 */
import assert from "node:assert/strict";
import { pullRequests } from "./cases/pull_requests.ts";
import { connectHttp, startHttp } from "./support/http_server.ts";

const SERVER_TOKEN = "server-wide-SECRET-3333";

Deno.test("HTTP, 2026-07-28: an unsafe write asks the person per request, and merges on a yes", async () => {
  await using h = startHttp({ routes: pullRequests.routes, serverToken: SERVER_TOKEN, ask: true });
  const asked: string[] = [];
  const client = await connectHttp(h.url, "modern", undefined, (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: "accept", content: { confirm: true } };
  });
  try {
    const result = await client.callTool({
      name: "merge_pull_request",
      arguments: { project: "PROJ", repo: "web", pr_id: 42 },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /^Merge pull request #42 .*version 3/);
    assert.equal(h.fixture.requests.filter((r) => r.method === "POST").length, 1);
  } finally {
    await client.close();
  }
});

Deno.test("HTTP, 2025 era: an unsafe write cannot ask over a stateless request, and is refused naming --yolo", async () => {
  await using h = startHttp({ routes: pullRequests.routes, serverToken: SERVER_TOKEN, ask: true });
  const client = await connectHttp(h.url, "legacy", undefined, () => ({ action: "accept" }));
  try {
    const result = await client.callTool({
      name: "merge_pull_request",
      arguments: { project: "PROJ", repo: "web", pr_id: 42 },
    });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result), /cannot ask them.*--yolo/);
    assert.deepEqual(h.fixture.requests, []);
  } finally {
    await client.close();
  }
});

Deno.test("HTTP behind a load balancer: a state signed by one instance is honoured by another sharing BITBUCKET_MCP_STATE_KEY", async () => {
  const stateKey = "a shared key that is at least thirty-two bytes";
  await using a = startHttp({
    routes: pullRequests.routes,
    serverToken: SERVER_TOKEN,
    ask: true,
    stateKey,
  });
  await using b = startHttp({
    routes: pullRequests.routes,
    serverToken: SERVER_TOKEN,
    ask: true,
    stateKey,
  });
  await using other = startHttp({
    routes: pullRequests.routes,
    serverToken: SERVER_TOKEN,
    ask: true,
  });
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  };
  const post = async (url: URL, params: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "merge_pull_request",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "merge_pull_request", ...params, _meta: meta },
      }),
    });
    const text = await response.text();
    const json = text.startsWith("{")
      ? text
      : text.split("\n").find((l) => l.startsWith("data:"))!.slice(5);
    return JSON.parse(json).result as Record<string, unknown>;
  };
  const args = { project: "PROJ", repo: "web", pr_id: 42 };
  const first = await post(a.url, { arguments: args });
  assert.equal(first.resultType, "input_required", JSON.stringify(first));
  const retry = {
    arguments: args,
    requestState: first.requestState,
    inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
  };
  const elsewhere = await post(other.url, retry);
  assert.equal(elsewhere.isError, true, "an instance with its own key refuses the state");
  assert.deepEqual(other.fixture.requests.filter((r) => r.method === "POST"), []);
  const merged = await post(b.url, retry);
  assert.notEqual(merged.isError, true, JSON.stringify(merged));
  assert.equal(b.fixture.requests.filter((r) => r.method === "POST").length, 1);
});
