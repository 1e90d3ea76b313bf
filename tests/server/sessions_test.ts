/**
 * Sessions for 2025-era HTTP clients that can be asked (src/server/sessions.ts):
 * the newest v1 SDK client (1.32.2, what VS Code and Copilot CLI ship) over
 * Streamable HTTP is asked before a merge and the answer is taken on the same
 * instance; declined, nothing is written; a replayed answer writes nothing; a
 * session of another instance or another token is 404; the cap and the idle
 * timeout hold; 2026-07-28 clients stay stateless.
 */
import assert from "node:assert/strict";
import { Client as ClientV1 } from "mcp-sdk-1.32.2/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "mcp-sdk-1.32.2/client/streamableHttp.js";
import { ElicitRequestSchema as ElicitV1 } from "mcp-sdk-1.32.2/types.js";
import { pullRequests } from "../../testing/cases/pull_requests.ts";
import { connectHttp, startHttp } from "../support/http_server.ts";
import { CONFIRM_KEY } from "../../src/policy/confirmation.ts";
import { SESSION_PREFIX, Sessions } from "../../src/server/sessions.ts";
import { DEFAULT_SESSION_LIMITS } from "../../src/server/session_limits.ts";
import { McpServer } from "@modelcontextprotocol/server";

const TOKEN = "session-test-token";
const MERGE = { project: "PROJ", repo: "web", pr_id: 42, strategy: "squash" };
const writes = (requests: { method: string }[]) => requests.filter((r) => r.method !== "GET");
type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };

/** A 1.32.2 client over HTTP declaring elicitation, answering each question with `answer`. */
async function clientV1(url: URL, answer: Answer, token = TOKEN, fetchLike?: typeof fetch) {
  const asked: string[] = [];
  const client = new ClientV1({ name: "vscode-like", version: "1.32.2" }, {
    capabilities: { elicitation: {} },
  });
  client.setRequestHandler(ElicitV1, (request: { params: unknown }) => {
    asked.push((request.params as { message: string }).message);
    return answer;
  });
  const transport = new HttpV1(url, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    ...(fetchLike ? { fetch: fetchLike } : {}),
  });
  await client.connect(transport);
  return { client, transport, asked };
}

/** The text of a tool result's first block. */
function text(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content?.[0]?.text) ?? "";
}

Deno.test("session (1.32.2 over HTTP): the person is asked before a merge, accepts, and it merges once", async () => {
  await using h = startHttp({ routes: pullRequests.routes, ask: true });
  const { client, transport, asked } = await clientV1(h.url, {
    action: "accept",
    content: { [CONFIRM_KEY]: true },
  });
  try {
    assert.ok(transport.sessionId?.startsWith(SESSION_PREFIX), transport.sessionId);
    const result = await client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(result.isError, true, text(result));
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /^Merge pull request #42 .*version 3.* with squash$/);
    const merges = h.fixture.requests.filter((r) => r.method === "POST");
    assert.equal(merges.length, 1);
    assert.match(merges[0]!.path, /\/pull-requests\/42\/merge/);
    assert.equal(merges[0]!.headers["authorization"], `Bearer ${TOKEN}`, "the caller's own token");
  } finally {
    await client.close();
  }
});

Deno.test("session (1.32.2 over HTTP): declined, nothing is written and the model is told not to retry", async () => {
  await using h = startHttp({ routes: pullRequests.routes, ask: true });
  const { client, asked } = await clientV1(h.url, { action: "decline" });
  try {
    const result = await client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.equal(result.isError, true);
    assert.equal(asked.length, 1);
    assert.match(text(result), /person declined.*do not retry/);
    assert.deepEqual(writes(h.fixture.requests), []);
  } finally {
    await client.close();
  }
});

Deno.test("session (1.32.2 over HTTP): the person's answer sent again writes nothing more", async () => {
  await using h = startHttp({ routes: pullRequests.routes, ask: true });
  // Keep the POST that carries the answer to the question (a JSON-RPC result with no method).
  let answer: { body: string; headers: Headers } | undefined;
  const recording: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : undefined;
    if (body !== undefined && /"result"/.test(body) && !/"method"/.test(body)) {
      answer = { body, headers: new Headers(init!.headers) };
    }
    return await fetch(input, init);
  };
  const { client, asked } = await clientV1(
    h.url,
    { action: "accept", content: { [CONFIRM_KEY]: true } },
    TOKEN,
    recording,
  );
  try {
    const result = await client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(result.isError, true, text(result));
    assert.ok(answer, "the client sent its answer in a request of its own");
    const replay = await fetch(h.url, {
      method: "POST",
      headers: answer.headers,
      body: answer.body,
    });
    await replay.body?.cancel();
    // Taken as a response to a question no longer open: accepted on the wire, acted on never.
    assert.equal(replay.status, 202);
    assert.equal(h.fixture.requests.filter((r) => r.method === "POST").length, 1);
    // The next merge is asked afresh: a yes is good for the one call it answered.
    const again = await client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(again.isError, true, text(again));
    assert.equal(asked.length, 2);
  } finally {
    await client.close();
  }
});

Deno.test("session behind a load balancer: another instance's session id, or another token's, is 404; DELETE ends it", async () => {
  await using a = startHttp({ routes: pullRequests.routes, ask: true });
  await using b = startHttp({ routes: pullRequests.routes, ask: true });
  const { client, transport } = await clientV1(a.url, { action: "decline" });
  try {
    const id = transport.sessionId!;
    const list = (url: URL, token: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Session-Id": id,
          "Mcp-Protocol-Version": "2025-11-25",
          Authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
      });
    const elsewhere = await list(b.url, TOKEN);
    assert.equal(elsewhere.status, 404);
    assert.match(await elsewhere.text(), /Session not found/);
    const stranger = await list(a.url, "someone-else");
    assert.equal(stranger.status, 404);
    await stranger.body?.cancel();
    const own = await list(a.url, TOKEN);
    assert.equal(own.status, 200);
    assert.match(await own.text(), /merge_pull_request/);
    await transport.terminateSession();
    const ended = await list(a.url, TOKEN);
    assert.equal(ended.status, 404);
    await ended.body?.cancel();
  } finally {
    await client.close();
  }
});

Deno.test("session cap: past --http-max-sessions a client is served without one, and a refused merge says why", async () => {
  await using h = startHttp({
    routes: pullRequests.routes,
    ask: true,
    sessions: { ...DEFAULT_SESSION_LIMITS, maxSessions: 1 },
  });
  const first = await clientV1(h.url, { action: "accept", content: { [CONFIRM_KEY]: true } });
  const second = await clientV1(h.url, { action: "accept", content: { [CONFIRM_KEY]: true } });
  try {
    assert.ok(first.transport.sessionId?.startsWith(SESSION_PREFIX));
    assert.equal(second.transport.sessionId, undefined);
    assert.ok(h.notices.some((n) => /--http-max-sessions/.test(n)), h.notices.join("\n"));
    const result = await second.client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.equal(result.isError, true);
    assert.match(text(result), /cannot carry the question.*session.*MCP 2026-07-28.*--yolo/);
    assert.doesNotMatch(text(result), /declares no elicitation/);
    assert.equal(second.asked.length, 0);
    assert.deepEqual(writes(h.fixture.requests), []);
  } finally {
    await first.client.close();
    await second.client.close();
  }
});

Deno.test("session: a 2026-07-28 client stays stateless (no session id) and is still asked through input_required", async () => {
  await using h = startHttp({ routes: pullRequests.routes, ask: true });
  const asked: string[] = [];
  const client = await connectHttp(h.url, "modern", TOKEN, (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: "accept", content: { [CONFIRM_KEY]: true } };
  });
  try {
    const result = await client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(result.isError, true, text(result));
    assert.equal(asked.length, 1);
    assert.equal(h.fixture.requests.filter((r) => r.method === "POST").length, 1);
    const probe = await fetch(h.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "no-elicitation", version: "0" },
        },
      }),
    });
    await probe.body?.cancel();
    assert.equal(probe.headers.get("mcp-session-id"), null, "a client that cannot ask gets none");
  } finally {
    await client.close();
  }
});

Deno.test("sessions: one idle past the timeout is ended, one used meanwhile is not, and none is ended early", async () => {
  let now = 1_000_000;
  const notices: string[] = [];
  const sessions = new Sessions({
    limits: { maxSessions: 10, sessionTimeoutMs: 60_000 },
    now: () => now,
    notice: (m) => notices.push(m),
    sweepEvery: 0,
  });
  const message = (id: number, method: string, params?: unknown) => ({
    jsonrpc: "2.0",
    id,
    method,
    ...(params === undefined ? {} : { params }),
  });
  const initialize = (id: number) =>
    message(id, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "t", version: "0" },
    });
  const request = (body: unknown, session?: string) =>
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Protocol-Version": "2025-11-25",
        ...(session ? { "Mcp-Session-Id": session } : {}),
      },
      body: JSON.stringify(body),
    });
  const auth = { token: TOKEN, clientId: "caller", scopes: [] };
  const server = () => new McpServer({ name: "t", version: "0" }, { capabilities: { tools: {} } });
  try {
    const a = await sessions.open(request(initialize(1)), initialize(1), auth, server());
    const b = await sessions.open(request(initialize(2)), initialize(2), auth, server());
    await a!.text();
    await b!.text();
    const idOfB = b!.headers.get("mcp-session-id")!;
    assert.equal(sessions.size, 2);
    now += 30_000;
    const ping = await sessions.serve(
      idOfB,
      request(message(3, "ping"), idOfB),
      message(3, "ping"),
      auth,
    );
    assert.equal(ping.status, 200);
    await ping.text();
    now += 29_999;
    assert.equal(sessions.sweep(), 0, "neither idle for the whole timeout yet");
    now += 1;
    assert.equal(sessions.sweep(), 1, "the idle one ends; the one used 30 s ago stays");
    assert.equal(sessions.size, 1);
    assert.match(notices.join("\n"), /ended 1 idle session/);
    now += 30_000;
    assert.equal(sessions.sweep(), 1);
    assert.equal(sessions.size, 0);
  } finally {
    await sessions.close();
  }
});
