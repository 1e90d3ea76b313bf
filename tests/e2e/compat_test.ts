/**
 * Every client that speaks MCP gets every tool: the v2 SDK on both eras (in
 * memory and over real stdio), the v1 SDK as a lagging client, a v1 SDK from
 * before SEP-2106, and raw JSON-RPC for each 2025 revision and for 2026-07-28.
 * Every test calls every tool, so each fixture holds every domain's routes.
 */
import { instructionsFor, SERVER_INFO } from "../../src/server/factory.ts";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "mcp-sdk-1.32.2/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "mcp-sdk-1.32.2/client/stdio.js";
import { Client as ClientV1Early } from "mcp-sdk-1.12.1/client/index.js";
import { StdioClientTransport as StdioClientTransportV1Early } from "mcp-sdk-1.12.1/client/stdio.js";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { ALL_ROUTES } from "../../testing/cases/mod.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { connect, TEST_TOKEN } from "../../testing/harness.ts";
import { ALL_TOOL_NAMES, callEveryTool } from "../support/payload.ts";
import { RawStdioSession, stdioServerParams, type Wire } from "../support/stdio_server.ts";
import { recordingReplies } from "../support/recording.ts";

const MODERN = "2026-07-28";
const REVISIONS_2025 = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`v2 client in memory, ${era} era: every tool answers a named object`, async () => {
    await using h = await connect({ routes: ALL_ROUTES, era, selection: { yolo: true } });
    assert.equal(
      h.client.getNegotiatedProtocolVersion(),
      era === "modern" ? MODERN : "2025-11-25",
    );
    const { tools } = await h.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ALL_TOOL_NAMES);
    await callEveryTool((name, args) => h.client.callTool({ name, arguments: args }));
    assert.deepEqual(h.fixture.unmatched, []);
  });
}

Deno.test("v2 client over real stdio, 2026-07-28 era: every tool answers a named object", async () => {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const client = new Client(
    { name: "compat-v2-stdio", version: "0.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  try {
    await client.connect(new StdioClientTransport(stdioServerParams(fixture.url)));
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ALL_TOOL_NAMES);
    await callEveryTool((name, args) => client.callTool({ name, arguments: args }));
    assert.ok(fixture.requests.length > 0);
    assert.ok(fixture.requests.every((r) => r.headers.authorization === `Bearer ${TEST_TOKEN}`));
  } finally {
    await client.close();
    await fixture.close();
  }
});

Deno.test("v1 SDK 1.32.2 over real stdio (lagging client): 2025-11-25, every tool answers a named object", async () => {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const replies: Wire[] = [];
  const client = new ClientV1({ name: "compat-v1", version: "0.0.0" });
  try {
    await client.connect(
      recordingReplies(new StdioClientTransportV1(stdioServerParams(fixture.url)), replies),
    );
    const init = replies.find((m) => m.id === 0)?.result as { protocolVersion: string };
    assert.equal(init.protocolVersion, "2025-11-25", "the client's own revision is honoured");
    assert.equal(client.getServerVersion()?.name, "bitbucket-mcp");
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t: { name: string }) => t.name), ALL_TOOL_NAMES);
    await callEveryTool((name, args) => client.callTool({ name, arguments: args }));
    assert.deepEqual(fixture.unmatched, []);
  } finally {
    await client.close();
    await fixture.close();
  }
});

Deno.test("v1 SDK 1.12.1 over real stdio (before SEP-2106): 2025-03-26, no call is rejected", async () => {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const replies: Wire[] = [];
  const client = new ClientV1Early({ name: "compat-v1-early", version: "0.0.0" });
  try {
    await client.connect(
      recordingReplies(new StdioClientTransportV1Early(stdioServerParams(fixture.url)), replies),
    );
    const init = replies.find((m) => m.id === 0)?.result as { protocolVersion: string };
    assert.equal(init.protocolVersion, "2025-03-26", "the client's own revision is honoured");
    // Listing first makes this client compile every output schema and check
    // each structuredContent against it, besides its own result schema.
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ALL_TOOL_NAMES);
    const validators = client as unknown as { getToolOutputValidator(name: string): unknown };
    for (const name of ALL_TOOL_NAMES) {
      assert.ok(validators.getToolOutputValidator(name), `1.12.1 compiled ${name}'s output schema`);
    }
    await callEveryTool((name, args) => client.callTool({ name, arguments: args }));
  } finally {
    await client.close();
    await fixture.close();
  }
});

/** Checks a tools/list answer entry by entry against the catalogue. */
function assertToolsList(result: unknown): void {
  const { tools } = result as { tools: Record<string, unknown>[] };
  assert.deepEqual(tools.map((t) => t.name), ALL_TOOL_NAMES);
  for (const tool of tools) {
    const own = CATALOGUE.find((t) => t.name === tool.name)!;
    assert.equal(tool.description, own.description);
    assert.equal((tool.inputSchema as { type: string }).type, "object", `${own.name} inputSchema`);
    assert.equal(
      (tool.outputSchema as { type: string }).type,
      "object",
      `${own.name} outputSchema`,
    );
    assert.deepEqual(tool.annotations, own.annotations, `${own.name} annotations`);
  }
}

/** Checks the list_tags answer every raw exchange asks for. */
function assertListTagsResult(result: unknown): void {
  const r = result as {
    isError?: boolean;
    structuredContent: { tags: { displayId: string }[] };
    content: { type: string; text: string }[];
  };
  assert.notEqual(r.isError, true);
  assert.ok(!Array.isArray(r.structuredContent));
  assert.equal(r.structuredContent.tags[0]?.displayId, "v1.0.0");
  assert.equal(r.content[0]?.type, "text");
  assert.deepEqual(JSON.parse(r.content[0]!.text), r.structuredContent);
}

const LIST_TAGS = { name: "list_tags", arguments: { project: "PROJ", repo: "web" } };

/** The instructions of the server these tests start (every tool, `--toolsets all`). */
const SERVED_INSTRUCTIONS = instructionsFor(undefined, undefined, [...CATALOGUE]);

/** What the server declares in either era: tools, resources and prompts whose lists never change, and completions. */
const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
};

for (const revision of REVISIONS_2025) {
  Deno.test(`raw JSON-RPC over stdio, ${revision}: initialize is answered in the client's revision, tools/list, then every tool`, async () => {
    const fixture = startFixtureBitbucket(ALL_ROUTES);
    const session = new RawStdioSession(stdioServerParams(fixture.url));
    try {
      const init = await session.request({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: revision,
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      });
      assert.equal(init.jsonrpc, "2.0");
      assert.equal(init.id, 1);
      const result = init.result as Record<string, unknown>;
      assert.equal(result.protocolVersion, revision, "the client's revision is echoed");
      assert.deepEqual(result.serverInfo, SERVER_INFO);
      assert.deepEqual(result.capabilities, CAPABILITIES);
      assert.equal(result.instructions, SERVED_INSTRUCTIONS);
      await session.send({ jsonrpc: "2.0", method: "notifications/initialized" });

      const list = await session.request({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      assertToolsList(list.result);
      const call = await session.request({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: LIST_TAGS,
      });
      assertListTagsResult(call.result);
      let id = 100;
      await callEveryTool(async (name, args) =>
        (await session.request({
          jsonrpc: "2.0",
          id: id++,
          method: "tools/call",
          params: { name, arguments: args },
        })).result
      );
    } finally {
      const { code, stderr } = await session.close();
      await fixture.close();
      assert.equal(code, 0, stderr);
      assert.ok(!stderr.includes(TEST_TOKEN), "the token never reaches stderr");
    }
    for (const line of session.stdoutLines) {
      assert.equal(JSON.parse(line).jsonrpc, "2.0", "stdout carries JSON-RPC only");
    }
  });
}

Deno.test("raw JSON-RPC over stdio, 2026-07-28: server/discover, tools/list and every tool in the per-request envelope", async () => {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const session = new RawStdioSession(stdioServerParams(fixture.url));
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  try {
    const discover = await session.request({
      jsonrpc: "2.0",
      id: "d",
      method: "server/discover",
      params: { _meta: envelope },
    });
    const result = discover.result as Record<string, unknown>;
    assert.ok((result.supportedVersions as string[]).includes(MODERN));
    assert.deepEqual(result.capabilities, CAPABILITIES);
    assert.equal(
      result.instructions,
      SERVED_INSTRUCTIONS,
      "server/discover carries the instructions too",
    );
    assert.deepEqual(
      (result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"],
      SERVER_INFO,
    );

    const list = await session.request({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: envelope },
    });
    assertToolsList(list.result);
    const call = await session.request({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { ...LIST_TAGS, _meta: envelope },
    });
    assertListTagsResult(call.result);
    let id = 100;
    await callEveryTool(async (name, args) =>
      (await session.request({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/call",
        params: { name, arguments: args, _meta: envelope },
      })).result
    );
  } finally {
    const { code, stderr } = await session.close();
    await fixture.close();
    assert.equal(code, 0, stderr);
  }
});
