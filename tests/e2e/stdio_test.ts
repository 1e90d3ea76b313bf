import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseFlags } from "../../src/cli/flags.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { MAIN, scopedPermissions } from "../../testing/spawn.ts";

Deno.test("end to end: deno run main.ts with scoped permissions serves tools over real stdio", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const host = new URL(fixture.url).host;
  const transport = new StdioClientTransport({
    command: "deno",
    args: ["run", "--no-prompt", ...scopedPermissions(host), MAIN],
    env: {
      BITBUCKET_URL: fixture.url,
      BITBUCKET_TOKEN: TEST_TOKEN,
      PATH: Deno.env.get("PATH") ?? "",
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "e2e", version: "0.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "list_branches"));
    const result = await client.callTool({
      name: "list_branches",
      arguments: { project: "PROJ", repo: "web", limit: 3 },
    });
    assert.notEqual(result.isError, true);
    const { branches } = result.structuredContent as { branches: { displayId: string }[] };
    assert.equal(branches[0]?.displayId, "main");
    assert.equal(fixture.requests[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
  } finally {
    await client.close();
    await fixture.close();
  }
  assert.ok(!stderr.includes(TEST_TOKEN), "the token never reaches stderr");
});

Deno.test("end to end: stdout carries only JSON-RPC, and end of stdin exits with status 0", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const child = new Deno.Command("deno", {
    args: ["run", "--no-prompt", ...scopedPermissions(new URL(fixture.url).host), MAIN],
    env: { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2024-11-05",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "list_branches", arguments: { project: "PROJ", repo: "web", limit: 3 } },
    },
  ];
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.map((l) => JSON.stringify(l) + "\n").join("")));
  // Read until the three answers are in, then close stdin.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while ((out.match(/\n/g) ?? []).length < 3) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  await writer.close();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  await fixture.close();
  const messages = out.trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(messages.every((m) => m.jsonrpc === "2.0"), "every stdout line is JSON-RPC");
  assert.deepEqual(messages.map((m) => m.id), [1, 2, 3]);
  assert.equal(
    messages[0].result.protocolVersion,
    "2024-11-05",
    "the client's revision is honoured",
  );
  assert.equal(messages[0].result.serverInfo.name, "bitbucket-mcp");
  assert.deepEqual(
    messages[1].result.tools.map((t: { name: string }) => t.name),
    // The view tools only to a client that declares MCP Apps (this one does not).
    selectTools(CATALOGUE, parseFlags([])).filter((t) => !isAppTool(t.config._meta))
      .map((t) => t.name),
    "the default selection is listed",
  );
  assert.equal(messages[2].result.structuredContent.branches[0].displayId, "main");
  assert.equal(status.code, 0, stderr);
});
