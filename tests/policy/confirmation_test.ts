/**
 * Asking the person before an unsafe call (src/policy/confirmation.ts), with
 * real clients: the v2 client on both eras (its elicitation handler accepts,
 * declines or cancels), the v1 1.32.2 client, a client that cannot ask, and
 * raw JSON-RPC retries with forged, expired, replayed and altered state.
 * Then in HTTP mode (behind src/server/http.ts): per request on 2026-07-28,
 * refused on a stateless 2025-era request, and a signed state shared across
 * instances by key.
 */
import assert from "node:assert/strict";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { Client as ClientV1 } from "mcp-sdk-1.32.2/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "mcp-sdk-1.32.2/client/stdio.js";
import { ElicitRequestSchema as ElicitRequestSchemaV1 } from "mcp-sdk-1.32.2/types.js";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { CONFIRM_KEY, CONFIRM_SCHEMA } from "../../src/policy/confirmation.ts";
import { PR, pullRequests } from "../../testing/cases/pull_requests.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams, type Wire } from "../support/stdio_server.ts";
import { connectHttp, startHttp } from "../support/http_server.ts";

const MERGE = { project: "PROJ", repo: "web", pr_id: 42, strategy: "squash" };
const MERGE_SENTENCE =
  `Merge pull request #42 "Validate the login form before submitting" (feature/login → main, version 3) in PROJ/web with squash`;
const ACCEPT: ElicitResult = { action: "accept", content: { [CONFIRM_KEY]: true } };
const writes = (requests: { method: string }[]) => requests.filter((r) => r.method !== "GET");

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`confirmation, ${era} era: the person sees what the merge will do, accepts, and the merge uses the version they saw`, async () => {
    const asked: ElicitRequest[] = [];
    await using h = await connect({
      routes: pullRequests.routes,
      era,
      elicit: (request) => {
        asked.push(request);
        return ACCEPT;
      },
    });
    const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(result.isError, true, firstText(result));
    assert.equal(asked.length, 1);
    const params = asked[0]!.params as { mode?: string; message: string; requestedSchema: unknown };
    assert.equal(params.message, MERGE_SENTENCE);
    assert.deepEqual(params.requestedSchema, CONFIRM_SCHEMA);
    assert.ok(!("default" in CONFIRM_SCHEMA.properties[CONFIRM_KEY]), "the field starts unset");
    const merge = h.fixture.requests.find((r) => r.method === "POST");
    assert.deepEqual([merge?.path, merge?.query, merge?.body], [
      `${PR}/merge`,
      { version: "3" },
      { version: 3, strategyId: "squash" },
    ]);
    assert.equal(writes(h.fixture.requests).length, 1);
  });

  for (const answer of [{ action: "decline" }, { action: "cancel" }] as const) {
    Deno.test(`confirmation, ${era} era: ${answer.action} is an error result and no write reaches Bitbucket`, async () => {
      await using h = await connect({ routes: pullRequests.routes, era, elicit: () => answer });
      const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
      assert.equal(result.isError, true);
      assert.match(firstText(result), new RegExp(`the person ${answer.action}d`));
      assert.deepEqual(writes(h.fixture.requests), []);
    });
  }

  Deno.test(`confirmation, ${era} era: accepting with the box unticked does nothing`, async () => {
    await using h = await connect({
      routes: pullRequests.routes,
      era,
      elicit: () => ({ action: "accept", content: { [CONFIRM_KEY]: false } }),
    });
    const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /did not tick the confirmation/);
    assert.deepEqual(writes(h.fixture.requests), []);
  });

  Deno.test(`confirmation, ${era} era: a pull request that changed after the person saw it is refused, naming the new version`, async () => {
    const pr42 = JSON.parse(await Deno.readTextFile("fixtures/pull_requests/pr-42.json"));
    await using h = await connect({
      routes: [
        { method: "GET", path: PR, fixture: "pull_requests/pr-42.json", once: true },
        { method: "GET", path: PR, body: { ...pr42, version: 4 } },
        ...pullRequests.routes,
      ],
      era,
      elicit: () => ACCEPT,
    });
    const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /version 3 was confirmed, it is now at version 4/);
    assert.deepEqual(writes(h.fixture.requests), []);
  });

  Deno.test(`confirmation, ${era} era: --yolo runs an unsafe write without asking`, async () => {
    let asked = 0;
    await using h = await connect({
      routes: pullRequests.routes,
      era,
      selection: { yolo: true },
      elicit: () => {
        asked++;
        return ACCEPT;
      },
    });
    const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(result.isError, true, firstText(result));
    assert.equal(asked, 0);
  });
}

Deno.test("confirmation, modern era: a client that cannot ask gets -32021 naming --yolo; nothing reaches Bitbucket", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const error = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE }).then(
    () => undefined,
    (e: unknown) => e as { code?: number; message?: string; data?: unknown },
  );
  assert.equal(error?.code, -32021);
  assert.match(error?.message ?? "", /this client cannot ask them/);
  assert.match(error?.message ?? "", /--yolo, which trusts the agent without asking/);
  assert.deepEqual(error?.data, { requiredCapabilities: { elicitation: { form: {} } } });
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("confirmation, legacy era: a client that cannot ask gets an error result naming --yolo and --withhold-unsafe; nothing reaches Bitbucket", async () => {
  await using h = await connect({ routes: pullRequests.routes, era: "legacy" });
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /cannot ask them.*--yolo.*--withhold-unsafe/);
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("confirmation: every unsafe write says in plain words what it will do", () => {
  const silent = CATALOGUE.filter((t) => t.access.level === "unsafe write" && !t.asks);
  assert.deepEqual(silent.map((t) => t.name), []);
});

Deno.test("confirmation: the v1 1.32.2 client answers the form through its elicitation handler", async () => {
  const fixture = startFixtureBitbucket(pullRequests.routes);
  const client = new ClientV1(
    { name: "compat-v1-elicit", version: "0.0.0" },
    { capabilities: { elicitation: {} } },
  );
  const messages: string[] = [];
  client.setRequestHandler(ElicitRequestSchemaV1, (request: { params: unknown }) => {
    messages.push((request.params as { message: string }).message);
    return { action: "accept", content: { [CONFIRM_KEY]: true } };
  });
  try {
    await client.connect(new StdioClientTransportV1(stdioServerParams(fixture.url, [])));
    const result = await client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(messages, [MERGE_SENTENCE]);
    assert.equal(fixture.requests.filter((r) => r.method === "POST").length, 1);
  } finally {
    await client.close();
    await fixture.close();
  }
});

const MODERN = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const STATE_KEY = "a test key that is at least thirty-two bytes long";

/** A raw 2026-07-28 session with a server started without --yolo, signing with {@link STATE_KEY}. */
function rawSession(fixtureUrl: string): RawStdioSession {
  const params = stdioServerParams(fixtureUrl, []);
  params.env.BITBUCKET_MCP_STATE_KEY = STATE_KEY;
  return new RawStdioSession(params);
}

let nextId = 1;
/** A tools/call of merge_pull_request, optionally a retry carrying `state` and `answer`. */
function mergeCall(
  session: RawStdioSession,
  args: Record<string, unknown>,
  retry?: { state: string; answer?: ElicitResult },
): Promise<Wire> {
  return session.request({
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: {
      name: "merge_pull_request",
      arguments: args,
      _meta: ENVELOPE,
      ...(retry
        ? { requestState: retry.state, inputResponses: { [CONFIRM_KEY]: retry.answer ?? ACCEPT } }
        : {}),
    },
  });
}

/** The requestState of an input_required answer. */
function stateOf(answer: Wire): string {
  const result = answer.result as { resultType?: string; requestState?: string };
  assert.equal(result.resultType, "input_required", JSON.stringify(answer));
  assert.ok(result.requestState);
  return result.requestState;
}

Deno.test("confirmation, raw 2026-07-28: the retry must carry the state as signed, once, for the same arguments", async () => {
  const fixture = startFixtureBitbucket(pullRequests.routes);
  const session = rawSession(fixture.url);
  const refused = (answer: Wire, why: RegExp) => {
    const result = answer.result as { isError?: boolean; content: { text: string }[] };
    assert.equal(result.isError, true, JSON.stringify(answer));
    assert.match(result.content[0]!.text, why);
  };
  try {
    const first = await mergeCall(session, MERGE);
    const state = stateOf(first);
    const asked = (first.result as { inputRequests: Record<string, { params: unknown }> })
      .inputRequests[CONFIRM_KEY];
    assert.equal((asked?.params as { message: string }).message, MERGE_SENTENCE);

    // Forged: one character of the signature changed.
    const flipped = state.slice(0, -2) + (state.at(-2) === "A" ? "B" : "A") + state.at(-1);
    refused(await mergeCall(session, MERGE, { state: flipped }), /not one this server signed/);
    // Altered arguments: the same state for another strategy.
    refused(
      await mergeCall(session, { ...MERGE, strategy: "no-ff" }, { state }),
      /another call or other arguments/,
    );
    // Expired: the same payload, signed with the server's key but already past its expiry.
    const payload = JSON.parse(atob(state.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).p;
    const expired = await createRequestStateCodec({ key: STATE_KEY, ttlSeconds: -60 }).mint(
      payload,
    );
    refused(await mergeCall(session, MERGE, { state: expired }), /it expired/);
    assert.deepEqual(writes(fixture.requests), [], "no refused retry wrote anything");

    // The genuine retry merges; replaying it is refused.
    const merged = await mergeCall(session, MERGE, { state });
    assert.equal(
      (merged.result as { isError?: boolean }).isError,
      undefined,
      JSON.stringify(merged),
    );
    refused(await mergeCall(session, MERGE, { state }), /already used/);
    assert.equal(writes(fixture.requests).length, 1);
  } finally {
    const { code, stderr } = await session.close();
    await fixture.close();
    assert.equal(code, 0, stderr);
  }
});

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
