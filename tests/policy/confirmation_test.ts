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
import { refs } from "../../testing/cases/refs.ts";
import { builds, BUILT } from "../../testing/cases/builds.ts";
import type { FixtureBitbucket, Route } from "../../testing/fixture_bitbucket.ts";
import { BRANCH_UTILS } from "../../testing/cases/refs.ts";
import { Confirmations } from "../../src/policy/confirmation.ts";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { CLI_HINTS } from "../../src/cli/hints.ts";
import { createServerFactory } from "../../src/server/factory.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams, type Wire } from "../support/stdio_server.ts";
import { connectHttp, startHttp } from "../support/http_server.ts";

const MERGE = { project: "PROJ", repo: "web", pr_id: 42, strategy: "squash" };
const MERGE_SENTENCE =
  `Merge pull request #42 "Validate the login form before submitting" ("feature/login" → "main", version 3) in PROJ/web with squash`;
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

Deno.test("HTTP, 2025 era: a client served statelessly is refused with the truth (no session carries the question) and what to use", async () => {
  await using h = startHttp({ routes: pullRequests.routes, serverToken: SERVER_TOKEN, ask: true });
  const client = await connectHttp(h.url, "legacy");
  try {
    const result = await client.callTool({
      name: "merge_pull_request",
      arguments: { project: "PROJ", repo: "web", pr_id: 42 },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /cannot carry the question.*session.*2026-07-28.*--yolo/);
    assert.doesNotMatch(firstText(result), /declares no elicitation/);
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

// ---- The question is exact: hostile Bitbucket text is cleaned and quoted. ----

/** Text carrying an unclosed RLO, an LRI, a zero-width space, a tag character, a quote and a newline. */
const HOSTILE = `x\u202Eevil\u2066\u200B\u{E0041}"q\nz`;
/** How HOSTILE must appear in a question: cleaned, then quoted as JSON. */
const QUOTED = JSON.stringify('xevil"q\nz');
/** How HOSTILE must appear as a name (a ref, a path, a key): each hidden character escaped, then quoted. */
const QUOTED_ID = JSON.stringify('x\\u{202E}evil\\u{2066}\\u{200B}\\u{E0041}"q\\u{A}z');
const INVISIBLE = /[\u202E\u2066\u200B\u{E0041}\n]/u;
const fixtureJson = (name: string) => JSON.parse(Deno.readTextFileSync(`fixtures/${name}`));
const HEAD = "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f";
const REPO_API = "/api/latest/projects/PROJ/repos/web";

/** Pull request #42 with every ref name, title and reviewer name hostile. */
function hostilePr() {
  const pr = fixtureJson("pull_requests/pr-42.json");
  pr.title = HOSTILE;
  pr.fromRef.displayId = HOSTILE;
  pr.toRef.displayId = HOSTILE;
  for (const r of pr.reviewers) r.user.name = HOSTILE;
  return pr;
}
const hostileRef = (kind: "heads" | "tags") => ({
  size: 1,
  limit: 100,
  isLastPage: true,
  start: 0,
  values: [{ id: `refs/${kind}/${HOSTILE}`, displayId: HOSTILE, latestCommit: HEAD }],
});
const PR_ARGS = { project: "PROJ", repo: "web", pr_id: 42 };
const HOSTILE_CASES: {
  tool: string;
  args: Record<string, unknown>;
  routes: Route[];
  /** The sentence's own words after the last quoted part. */
  tail: string;
}[] = [
  {
    tool: "merge_pull_request",
    args: { ...PR_ARGS, strategy: "squash" },
    routes: [{ method: "GET", path: PR, body: hostilePr() }],
    tail: `(${QUOTED} → ${QUOTED}, version 3) in PROJ/web with squash`,
  },
  {
    tool: "decline_pull_request",
    args: PR_ARGS,
    routes: [{ method: "GET", path: PR, body: hostilePr() }],
    tail: `, version 3) in PROJ/web, closing it unmerged for every participant`,
  },
  {
    tool: "enable_auto_merge",
    args: PR_ARGS,
    routes: [{ method: "GET", path: PR, body: hostilePr() }],
    tail:
      `, version 3) in PROJ/web with the repository's default strategy as soon as every merge check passes (possibly at once), without asking again`,
  },
  {
    tool: "apply_pr_suggestion",
    args: { ...PR_ARGS, comment_id: 310 },
    routes: [{ method: "GET", path: PR, body: hostilePr() }],
    tail: `${QUOTED} in PROJ/web (version 3)`,
  },
  {
    tool: "update_pull_request",
    args: { ...PR_ARGS, reviewers: [] },
    routes: [{ method: "GET", path: PR, body: hostilePr() }],
    tail: `${QUOTED} in PROJ/web (version 3), dropping their verdict from its merge checks`,
  },
  {
    tool: "submit_pr_review",
    args: { ...PR_ARGS, action: "APPROVE" },
    routes: [{ method: "GET", path: PR, body: hostilePr() }],
    tail: `${QUOTED} in PROJ/web (version 3) as you, publishing your`,
  },
  {
    tool: "delete_pr_comment",
    args: { ...PR_ARGS, comment_id: 310 },
    routes: [{
      method: "GET",
      path: `${PR}/comments/310`,
      body: {
        ...fixtureJson("pull_requests/comment-310.json"),
        text: HOSTILE,
        author: { name: "cdavis", displayName: HOSTILE },
      },
    }],
    tail: `by ${QUOTED} on pull request #42 in PROJ/web (version `,
  },
  {
    tool: "update_pr_comment",
    args: { ...PR_ARGS, comment_id: 301, task_state: "RESOLVED" },
    routes: [{
      method: "GET",
      path: `${PR}/comments/301`,
      body: { ...fixtureJson("pull_requests/task-301.json"), text: HOSTILE },
    }],
    tail: `${QUOTED} of pull request #42 in PROJ/web (version 0), lifting the merge check it holds`,
  },
  {
    tool: "delete_branch",
    args: { project: "PROJ", repo: "web", name: HOSTILE },
    routes: [{ method: "GET", path: `${REPO_API}/branches`, body: hostileRef("heads") }],
    tail: `${QUOTED_ID} from PROJ/web, at commit a3c7e0f4b9d2; Bitbucket cannot restore it`,
  },
  {
    tool: "delete_tag",
    args: { project: "PROJ", repo: "web", name: HOSTILE },
    routes: [{ method: "GET", path: `${REPO_API}/tags`, body: hostileRef("tags") }],
    tail: `${QUOTED_ID} from PROJ/web, at commit a3c7e0f4b9d2; Bitbucket cannot restore it`,
  },
  {
    tool: "set_build_status",
    args: {
      ...builds.toolArguments.set_build_status!.args,
      key: HOSTILE,
      name: HOSTILE,
      url: HOSTILE,
    },
    routes: [{
      method: "GET",
      path: `${REPO_API}/commits/${BUILT}/builds`,
      body: { key: HOSTILE, state: HOSTILE, url: HOSTILE },
    }],
    tail: `${QUOTED_ID} ${QUOTED} (linking ${QUOTED_ID}) as SUCCESSFUL on commit ${
      BUILT.slice(0, 12)
    } in PROJ/web, replacing its ${QUOTED} status; merge checks and reviewers rely on it`,
  },
  {
    tool: "commit_file",
    args: {
      project: "PROJ",
      repo: "web",
      path: HOSTILE,
      content: "x",
      message: "m",
      branch: "main",
    },
    routes: [{
      method: "GET",
      path: `${REPO_API}/default-branch`,
      body: { id: "refs/heads/main", displayId: HOSTILE, type: "BRANCH" },
    }],
    tail: `${QUOTED_ID}, the default branch of PROJ/web, without a pull request's review`,
  },
];

for (const { tool, args, routes, tail } of HOSTILE_CASES) {
  Deno.test(`confirmation: ${tool} asks with Bitbucket's text cleaned (names made visible) and quoted, its own words intact after it`, async () => {
    const asked: string[] = [];
    await using h = await connect({
      routes: [...routes, ...pullRequests.routes, ...refs.routes, ...builds.routes],
      elicit: (request) => {
        asked.push((request.params as { message: string }).message);
        return { action: "decline" };
      },
    });
    const result = await h.client.callTool({ name: tool, arguments: args });
    assert.equal(result.isError, true);
    assert.equal(asked.length, 1, firstText(result));
    const message = asked[0]!;
    assert.doesNotMatch(message, INVISIBLE, message);
    assert.ok(message.includes(QUOTED) || message.includes(QUOTED_ID), message);
    const unquoted = message.replaceAll(QUOTED, "").replaceAll(QUOTED_ID, "");
    assert.ok(!unquoted.includes("evil"), `unquoted text in: ${message}`);
    assert.ok(message.includes(tail), `${JSON.stringify(message)}\nlacks ${JSON.stringify(tail)}`);
    assert.deepEqual(writes(h.fixture.requests), []);
  });
}

// ---- No replay across instances: the binding is read again after the yes. ----

/** One in-process server instance over raw JSON-RPC (2026-07-28), signing with `confirmations`. */
async function instance(fixtureUrl: string, confirmations: Confirmations, lines: string[]) {
  const bitbucket = new BitbucketClient({
    baseUrl: new URL(fixtureUrl),
    token: TEST_TOKEN,
    timeoutMs: 5000,
    retry: { baseDelayMs: 1 },
    hints: CLI_HINTS,
  });
  const tools = selectTools(CATALOGUE, { readOnly: false });
  const audit = { sink: (line: string) => lines.push(line), failure: "refuse" as const, warn() {} };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(
    createServerFactory(tools, bitbucket, { unsafeWrites: false, confirmations, audit }),
    { transport: serverSide },
  );
  const waiting = new Map<number, (message: Wire) => void>();
  clientSide.onmessage = (message) => {
    const wire = message as Wire;
    waiting.get(wire.id as number)?.(wire);
  };
  await clientSide.start();
  let id = 1;
  return {
    async call(name: string, args: Record<string, unknown>, state?: string) {
      const request = id++;
      const answer = new Promise<Wire>((resolve) => waiting.set(request, resolve));
      await clientSide.send({
        jsonrpc: "2.0",
        id: request,
        method: "tools/call",
        params: {
          name,
          arguments: args,
          _meta: ENVELOPE,
          ...(state ? { requestState: state, inputResponses: { [CONFIRM_KEY]: ACCEPT } } : {}),
        },
      });
      return (await answer).result as Record<string, unknown> & {
        isError?: boolean;
        content?: { text: string }[];
      };
    },
    async [Symbol.asyncDispose]() {
      await clientSide.close();
      await handle.close();
    },
  };
}

/**
 * The three writes a replay must not repeat, each against routes that keep
 * Bitbucket's state: what the fixture was sent (`sent`) decides what a read finds.
 */
function replayCases(sent: () => { method: string }[]) {
  const wrote = () => sent().some((r) => r.method !== "GET");
  const without = (page: { values: { displayId: string }[] }, name: string) => ({
    ...page,
    values: page.values.filter((v) => v.displayId !== name),
  });
  const BUILDS = `${REPO_API}/commits/${BUILT}/builds`;
  const SET = builds.toolArguments.set_build_status!.args;
  const none: Route = {
    method: "GET",
    path: BUILDS,
    status: 404,
    fixture: "errors/build-status-not-found.json",
    once: true,
  };
  return [{
    tool: "delete_branch",
    args: { project: "PROJ", repo: "web", name: "feature/login" },
    routes: [
      {
        method: "GET",
        path: `${REPO_API}/branches`,
        respond: () => {
          const page = fixtureJson("refs/branches.json");
          return wrote() ? without(page, "feature/login") : page;
        },
      },
      { method: "DELETE", path: BRANCH_UTILS, status: 204 },
    ] as Route[],
  }, {
    tool: "delete_tag",
    args: { project: "PROJ", repo: "web", name: "v1.0.0" },
    routes: [
      {
        method: "GET",
        path: `${REPO_API}/tags`,
        respond: () => {
          const page = fixtureJson("refs/tags.json");
          return wrote() ? without(page, "v1.0.0") : page;
        },
      },
      { method: "DELETE", path: "/git/latest/projects/PROJ/repos/web/tags/v1.0.0", status: 204 },
    ] as Route[],
  }, {
    tool: "set_build_status",
    args: SET,
    routes: [
      // No status under the key when asked and when checked after the yes; then the one set.
      none,
      { ...none },
      {
        method: "GET",
        path: BUILDS,
        body: {
          key: SET.key,
          state: "SUCCESSFUL",
          url: SET.url,
          createdDate: 1732801411000,
          updatedDate: 1732801411000,
        },
      },
      { method: "POST", path: BUILDS, status: 204 },
    ] as Route[],
  }];
}

for (const { tool } of replayCases(() => [])) {
  Deno.test(`confirmation across instances: a ${tool} confirmed on one instance, replayed on another sharing the key, is refused and sends nothing`, async () => {
    const started: { fixture?: FixtureBitbucket } = {};
    const cases = replayCases(() => started.fixture?.requests ?? []);
    const { args, routes } = cases.find((c) => c.tool === tool)!;
    const fixture = started.fixture = startFixtureBitbucket(routes);
    const confirmations = { key: STATE_KEY };
    const linesA: string[] = [];
    const linesB: string[] = [];
    try {
      await using a = await instance(fixture.url, new Confirmations(confirmations), linesA);
      await using b = await instance(fixture.url, new Confirmations(confirmations), linesB);
      const asked = await a.call(tool, args);
      assert.equal(asked.resultType, "input_required", JSON.stringify(asked));
      const state = asked.requestState as string;
      const done = await a.call(tool, args, state);
      assert.notEqual(done.isError, true, JSON.stringify(done));
      assert.equal(writes(fixture.requests).length, 1);

      const replayed = await b.call(tool, args, state);
      assert.equal(replayed.isError, true, JSON.stringify(replayed));
      assert.match(replayed.content![0]!.text, /Cannot (call|delete)/);
      assert.equal(writes(fixture.requests).length, 1, "the replay sent no second write");
      const last = JSON.parse(linesB.at(-1)!);
      assert.equal(last.confirmation, "stale", linesB.at(-1));
      assert.deepEqual(last.requests.filter((r: { method: string }) => r.method !== "GET"), []);

      // On the instance that used it, the same state is refused as a replay before any read.
      const before = fixture.requests.length;
      const again = await a.call(tool, args, state);
      assert.match(again.content![0]!.text, /already used/);
      assert.equal(JSON.parse(linesA.at(-1)!).confirmation, "replayed");
      assert.equal(fixture.requests.length, before);
    } finally {
      await fixture.close();
    }
  });
}

Deno.test("confirmation: a confirmed delete_branch sends the head the person saw as endPoint", async () => {
  await using h = await connect({
    routes: refs.routes,
    elicit: () => ACCEPT,
  });
  const result = await h.client.callTool({
    name: "delete_branch",
    arguments: { project: "PROJ", repo: "web", name: "feature/login" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(writes(h.fixture.requests).map((r) => (r as { body?: unknown }).body), [
    { name: "refs/heads/feature/login", endPoint: HEAD },
  ]);
});
