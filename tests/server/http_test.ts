/**
 * Streamable HTTP mode: the same catalogue over `serve --http`, stateless,
 * each request served with its caller's own Bitbucket token (or the
 * server-wide one), behind Host/Origin validation, with a health path that never
 * touches Bitbucket.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { selectTools } from "../../src/policy/selection.ts";
import { HEALTH_PATH } from "../../src/server/http.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";
import { VERSION } from "../../src/version.ts";
import { ALL_ROUTES } from "../../testing/cases/mod.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { freePort } from "../../testing/free_port.ts";
import {
  connectHttp,
  type Era,
  rawHttp,
  spawnHttpMain,
  startHttp,
} from "../support/http_server.ts";
import { ALL_TOOL_NAMES, callEveryTool } from "../support/payload.ts";
import { ENV_FLAG, runMain } from "../../testing/spawn.ts";

const TOKEN_A = "caller-A-SECRET-1111";
const TOKEN_B = "caller-B-SECRET-2222";
const SERVER_TOKEN = "server-wide-SECRET-3333";

/** A JSON-RPC initialize body for raw requests. */
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
});
const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

for (const era of ["modern", "legacy"] as Era[]) {
  Deno.test(`HTTP, ${era} era: tools/list and every tool answer, with the caller's token`, async () => {
    // Every domain's routes: every tool is called.
    await using h = startHttp({ routes: ALL_ROUTES });
    const client = await connectHttp(h.url, era, TOKEN_A);
    try {
      assert.equal(
        client.getNegotiatedProtocolVersion(),
        era === "modern" ? "2026-07-28" : "2025-11-25",
      );
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ALL_TOOL_NAMES);
      await callEveryTool((name, args) => client.callTool({ name, arguments: args }));
    } finally {
      await client.close();
    }
    assert.deepEqual(h.fixture.unmatched, []);
    assert.ok(h.fixture.requests.length > 0);
    for (const request of h.fixture.requests) {
      assert.equal(request.headers.authorization, `Bearer ${TOKEN_A}`);
    }
  });
}

Deno.test("HTTP: two concurrent clients with different tokens each reach Bitbucket with their own token only", async () => {
  // A server-wide token is set too: a caller's own token must win over it.
  await using h = startHttp({ routes: refs.routes, serverToken: SERVER_TOKEN });
  const a = await connectHttp(h.url, "modern", TOKEN_A);
  const b = await connectHttp(h.url, "legacy", TOKEN_B);
  try {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 8; i++) {
      calls.push(a.callTool({ name: "list_tags", arguments: { project: "PROJ", repo: "web" } }));
      calls.push(
        b.callTool({ name: "list_branches", arguments: { project: "PROJ", repo: "web" } }),
      );
    }
    const results = await Promise.all(calls) as { isError?: boolean }[];
    assert.ok(results.every((r) => r.isError !== true));
  } finally {
    await a.close();
    await b.close();
  }
  const seen = (part: string) =>
    h.fixture.requests.filter((r) => r.path.includes(part)).map((r) => r.headers.authorization);
  assert.equal(seen("/tags").length, 8);
  assert.ok(seen("/branches").length >= 8);
  assert.deepEqual(new Set(seen("/tags")), new Set([`Bearer ${TOKEN_A}`]));
  assert.deepEqual(new Set(seen("/branches")), new Set([`Bearer ${TOKEN_B}`]));
  assert.equal(h.fixture.requests.length, seen("/tags").length + seen("/branches").length);
});

const BRANCHES_CALL = {
  name: "list_branches",
  arguments: { project: "PROJ", repo: "web", limit: 3 },
};

/** A raw `tools/call` POST as a client of each era sends it. */
function toolsCallRequest(url: URL, era: Era, signal?: AbortSignal): Request {
  const modern = era === "modern";
  const params = modern
    ? {
      ...BRANCHES_CALL,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    }
    : BRANCHES_CALL;
  return new Request(url, {
    method: "POST",
    headers: {
      ...MCP_HEADERS,
      Authorization: `Bearer ${TOKEN_A}`,
      "MCP-Protocol-Version": modern ? "2026-07-28" : "2025-11-25",
      ...(modern ? { "Mcp-Method": "tools/call", "Mcp-Name": BRANCHES_CALL.name } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params }),
    signal,
  });
}

// A 2025-era answer is a stream that opens at once, so a client leaving mid-call is seen (Deno ends
// the exchange); a 2026-era answer is one JSON body, sent when the call ends.
Deno.test("HTTP, legacy era: a client that goes away mid-call aborts its Bitbucket request, and the next call is served", async () => {
  await using h = startHttp({
    routes: [
      {
        method: "GET",
        path: "/api/latest/projects/PROJ/repos/web/branches",
        delayMs: 10_000,
        once: true,
      },
      ...refs.routes,
    ],
  });
  const gone = new AbortController();
  const response = await fetch(toolsCallRequest(h.url, "legacy", gone.signal));
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  await h.fixture.until(() => h.fixture.requests.length === 1);
  gone.abort();
  await assert.rejects(response.text());
  await h.fixture.until(() => h.fixture.requests[0]!.aborted);
  assert.ok(
    h.fixture.requests[0]!.aborted,
    "abandoned before Bitbucket answered (not by --timeout)",
  );
  const next = await fetch(toolsCallRequest(h.url, "legacy"));
  assert.equal(next.status, 200);
  assert.match(await next.text(), /"branches":\[\{/);
});

for (const era of ["modern", "legacy"] as Era[]) {
  Deno.test(`HTTP, ${era} era: a call to a tool the server does not have is refused as not found; the next call is served`, async () => {
    await using h = startHttp({ routes: refs.routes });
    const client = await connectHttp(h.url, era, TOKEN_A);
    try {
      for (const name of ["no_such_tool", "constructor", "__proto__"]) {
        let message = "";
        try {
          const result = await client.callTool({ name, arguments: {} });
          message = result.isError ? JSON.stringify(result.content) : "";
        } catch (error) {
          message = String(error);
        }
        assert.match(message, new RegExp(`${name}.*(not found|disabled)`), name);
      }
      assert.deepEqual(h.fixture.requests, []);
      const result = await client.callTool({
        name: "list_tags",
        arguments: { project: "PROJ", repo: "web" },
      });
      assert.notEqual(result.isError, true);
    } finally {
      await client.close();
    }
  });
}

Deno.test("HTTP: a request without a token uses BITBUCKET_TOKEN (with BITBUCKET_USERNAME); a caller's token stays Bearer", async () => {
  await using h = startHttp({ routes: refs.routes, serverToken: SERVER_TOKEN, username: "svc" });
  for (const token of [undefined, TOKEN_A]) {
    const client = await connectHttp(h.url, "modern", token);
    try {
      const result = await client.callTool({
        name: "list_tags",
        arguments: { project: "PROJ", repo: "web" },
      });
      assert.notEqual(result.isError, true);
    } finally {
      await client.close();
    }
  }
  assert.deepEqual(h.fixture.requests.map((r) => r.headers.authorization), [
    `Basic ${btoa(`svc:${SERVER_TOKEN}`)}`,
    `Bearer ${TOKEN_A}`,
  ]);
});

Deno.test("HTTP: no token and no BITBUCKET_TOKEN is refused with 401 before anything runs", async () => {
  await using h = startHttp();
  const response = await fetch(h.url, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE });
  assert.equal(response.status, 401);
  assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer /);
  assert.match(await response.text(), /Authorization: Bearer/);
  const malformed = await fetch(h.url, {
    method: "POST",
    headers: { ...MCP_HEADERS, Authorization: `Basic ${btoa("u:p")}` },
    body: INITIALIZE,
  });
  assert.equal(malformed.status, 401);
  await malformed.body?.cancel();
  const client = new Client({ name: "no-token", version: "0" });
  await assert.rejects(client.connect(new StreamableHTTPClientTransport(h.url)));
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("HTTP: a foreign Origin is refused with 403; a localhost origin is served", async () => {
  await using h = startHttp({ serverToken: SERVER_TOKEN });
  const refused = await fetch(h.url, {
    method: "POST",
    headers: { ...MCP_HEADERS, Origin: "https://evil.example" },
    body: INITIALIZE,
  });
  assert.equal(refused.status, 403);
  assert.match(await refused.text(), /Invalid Origin: evil\.example/);
  const local = await fetch(h.url, {
    method: "POST",
    headers: { ...MCP_HEADERS, Origin: "http://localhost:6274" },
    body: INITIALIZE,
  });
  assert.equal(local.status, 200);
  assert.match(await local.text(), /"protocolVersion":"2025-06-18"/);
});

Deno.test("HTTP: a foreign Host is refused with 403 (DNS rebinding); --allow-host names are served", async () => {
  await using h = startHttp({ serverToken: SERVER_TOKEN, allowHosts: ["MCP.example.com"] });
  const port = Number(h.url.port);
  const head = (host: string) => [
    "POST /mcp HTTP/1.1",
    `Host: ${host}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
  ];
  const refused = await rawHttp(port, head("rebound.evil.example"), INITIALIZE);
  assert.equal(refused.status, 403);
  assert.match(refused.text, /Invalid Host: rebound\.evil\.example/);
  const allowed = await rawHttp(port, head("mcp.example.com:443"), INITIALIZE);
  assert.equal(allowed.status, 200);
  assert.match(allowed.text, /"serverInfo":\{"name":"bitbucket-mcp"/);
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test(`HTTP: ${HEALTH_PATH} answers without a token and without touching Bitbucket; other paths are 404`, async () => {
  await using h = startHttp();
  const health = await fetch(new URL(HEALTH_PATH, h.url));
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: "ok", name: "bitbucket-mcp", version: VERSION });
  const other = await fetch(new URL("/other", h.url));
  assert.equal(other.status, 404);
  await other.body?.cancel();
  const get = await fetch(h.url, { headers: { Authorization: `Bearer ${TOKEN_A}` } });
  assert.equal(get.status, 405, "stateless: no GET stream, no sessions");
  await get.body?.cancel();
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("end to end: deno run main.ts serve --http with net permission for the listen address and Bitbucket only", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const port = freePort();
  // No BITBUCKET_TOKEN: in HTTP mode every caller brings its own.
  const server = await spawnHttpMain(
    [`--allow-net=127.0.0.1:${port},${new URL(fixture.url).host}`, ENV_FLAG],
    ["serve", "--http", `127.0.0.1:${port}`, "--read-only", "--toolsets", "all"],
    { BITBUCKET_URL: fixture.url },
  );
  let stopped: { code: number; stdout: string; stderr: string } | undefined;
  try {
    assert.equal(server.url.href, `http://127.0.0.1:${port}/mcp`);
    const health = await fetch(new URL(HEALTH_PATH, server.url));
    assert.equal((await health.json()).status, "ok");
    const foreign = await rawHttp(port, [
      "POST /mcp HTTP/1.1",
      "Host: rebound.evil.example",
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
    ], INITIALIZE);
    assert.equal(foreign.status, 403);
    assert.match(foreign.text, /Invalid Host: rebound\.evil\.example: add it with --allow-host/);
    for (const era of ["modern", "legacy"] as Era[]) {
      const client = await connectHttp(server.url, era, TOKEN_A);
      try {
        const { tools } = await client.listTools();
        // The view tools only to a client that declares MCP Apps (this one does not).
        const expected = selectTools(CATALOGUE, { readOnly: true, toolsets: ["all"] })
          .filter((t) => !isAppTool(t.config._meta)).map((t) => t.name);
        assert.deepEqual(tools.map((t) => t.name), expected, "gating applies over HTTP too");
        const result = await client.callTool({
          name: "list_tags",
          arguments: { project: "PROJ", repo: "web" },
        });
        assert.equal(
          (result.structuredContent as { tags: { displayId: string }[] }).tags[0]?.displayId,
          "v1.0.0",
        );
      } finally {
        await client.close();
      }
    }
    // A client narrowing to a toolset whose writes this read-only server does not serve.
    const refsOnly = await connectHttp(server.url, "modern", TOKEN_A, undefined, {}, {
      "X-MCP-Toolsets": "refs",
    });
    try {
      const { tools } = await refsOnly.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        selectTools(CATALOGUE, { readOnly: true, toolsets: ["refs"] }).map((t) => t.name),
      );
    } finally {
      await refsOnly.close();
    }
  } finally {
    stopped = await server.stop();
    await fixture.close();
  }
  const writes = selectTools(CATALOGUE, { readOnly: false, toolsets: ["refs"] })
    .filter((t) => t.access.level !== "read-only").map((t) => t.name);
  const narrowed = stopped.stderr.split("\n").filter((line) => line.includes("X-MCP-Toolsets"));
  assert.equal(narrowed.length, 1, `logged once, for the first of its requests: ${stopped.stderr}`);
  assert.match(narrowed[0]!, /^bitbucket-mcp: warn: a request asked for X-MCP-Toolsets: refs;/);
  for (const name of writes) assert.ok(narrowed[0]!.includes(name), `${name} named as left out`);
  assert.equal(stopped.code, 0, `SIGTERM stops the server cleanly: ${stopped.stderr}`);
  assert.equal(stopped.stdout, "", "nothing on stdout");
  assert.ok(
    stopped.stderr.includes(`(health: http://127.0.0.1:${port}${HEALTH_PATH})`),
    stopped.stderr,
  );
  assert.ok(!stopped.stderr.includes(TOKEN_A), "the caller's token is never logged");
  assert.ok(!stopped.stderr.includes("request.signal"), "Deno's legacy-abort warning never shows");
  assert.deepEqual(
    new Set(fixture.requests.map((r) => r.headers.authorization)),
    new Set([`Bearer ${TOKEN_A}`]),
  );
});

const HTTP_STARTUP_ERRORS: { why: string; flags: string[]; args: string[]; says: RegExp }[] = [
  {
    why: "no permission to listen",
    flags: ["--allow-net=bitbucket.example.com", ENV_FLAG],
    args: ["serve", "--http", "127.0.0.1:8080"],
    says: /no network permission to listen on 127\.0\.0\.1:8080: add it to --allow-net/,
  },
  {
    why: "--allow-host without --http",
    flags: ["--allow-net=bitbucket.example.com", ENV_FLAG],
    args: ["--allow-host", "mcp.example.com"],
    says: /--allow-host applies to --http only/,
  },
  {
    why: "--allow-host with a scheme",
    flags: ["--allow-net=bitbucket.example.com", ENV_FLAG],
    args: ["--http", "8080", "--allow-host", "https://mcp.example.com"],
    says: /--allow-host takes host names without scheme or port/,
  },
  {
    why: "--http with the tools command",
    flags: [],
    args: ["tools", "--http", "8080"],
    says: /--http applies to serve only/,
  },
];

for (const c of HTTP_STARTUP_ERRORS) {
  Deno.test(`startup: ${c.why} prints one actionable line and exits 2`, async () => {
    const out = await runMain(c.flags, c.args, { BITBUCKET_URL: "https://bitbucket.example.com" });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(out.stdout, "");
    assert.equal(out.stderr.trimEnd().split("\n").length, 1, out.stderr);
    assert.match(out.stderr, c.says);
  });
}
