/**
 * A catalogue per client over HTTP (src/server/connection_selection.ts): each
 * header and path form narrows what a request lists and may call, never past
 * what the server's own selection exposes; resources, prompts, completions
 * and instructions follow; a name the catalogue lacks is a 400.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { exposedTools } from "../../src/policy/choices.ts";
import { selectTools, type ToolSelection } from "../../src/policy/selection.ts";
import { offeredPrompts } from "../../src/prompts/prompts.ts";
import { offeredTemplates } from "../../src/resources/templates.ts";
import { NARROWING_HEADERS, pathAsk } from "../../src/server/connection_selection.ts";
import { MCP_PATH } from "../../src/server/http.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";
import { ALL_ROUTES, toolArguments } from "../../testing/cases/mod.ts";
import { PR } from "../../testing/cases/pull_requests.ts";
import { connectHttp, type Era, startHttp } from "../support/http_server.ts";

const TOKEN = "narrowing-SECRET-7777";

Deno.test("pathAsk: /mcp, /mcp/readonly, /mcp/x/{toolsets} and /mcp/x/{toolsets}/readonly; nothing else", () => {
  assert.deepEqual(pathAsk("/mcp", MCP_PATH), { readOnly: false });
  assert.deepEqual(pathAsk("/mcp/readonly", MCP_PATH), { readOnly: true });
  assert.deepEqual(pathAsk("/mcp/x/refs,builds", MCP_PATH), {
    toolsets: ["refs", "builds"],
    readOnly: false,
  });
  assert.deepEqual(pathAsk("/mcp/x/refs%2Cbuilds/readonly", MCP_PATH), {
    toolsets: ["refs", "builds"],
    readOnly: true,
  });
  for (const other of ["/mcpx", "/mcp/", "/mcp/x", "/mcp/x/", "/mcp/x/a/b", "/mcp/y/refs"]) {
    assert.equal(pathAsk(other, MCP_PATH), undefined, other);
  }
  assert.equal(pathAsk("/mcp/x/%E0%A4%A", MCP_PATH), undefined, "a bad escape is no MCP path");
});

/** The tool names a client that draws no views is listed under `selection`, in catalogue order. */
function listedUnder(selection: ToolSelection): string[] {
  return exposedTools(selectTools(CATALOGUE, selection), undefined)
    .filter((t) => !isAppTool(t.config._meta))
    .map((t) => t.name);
}

/** One form of narrowing: the path, the headers, and what they select by the command line's rule. */
interface Form {
  name: string;
  path: string;
  headers: Record<string, string>;
  selects: ToolSelection;
}

const FORMS: Form[] = [
  {
    name: `${NARROWING_HEADERS.toolsets}: builds,jira`,
    path: MCP_PATH,
    headers: { [NARROWING_HEADERS.toolsets]: "builds,jira" },
    selects: { readOnly: false, toolsets: ["builds", "jira"] },
  },
  {
    name: `${NARROWING_HEADERS.readOnly}: true`,
    path: MCP_PATH,
    headers: { [NARROWING_HEADERS.readOnly]: "true" },
    selects: { readOnly: true },
  },
  {
    name: `${NARROWING_HEADERS.tools}: get_pull_request,list_tags`,
    path: MCP_PATH,
    headers: { [NARROWING_HEADERS.tools]: "get_pull_request,list_tags" },
    selects: { readOnly: false, tools: ["get_pull_request", "list_tags"] },
  },
  {
    name: "/mcp/x/refs",
    path: `${MCP_PATH}/x/refs`,
    headers: {},
    selects: { readOnly: false, toolsets: ["refs"] },
  },
  {
    name: "/mcp/x/refs,builds/readonly",
    path: `${MCP_PATH}/x/refs,builds/readonly`,
    headers: {},
    selects: { readOnly: true, toolsets: ["refs", "builds"] },
  },
  {
    name: "/mcp/readonly",
    path: `${MCP_PATH}/readonly`,
    headers: {},
    selects: { readOnly: true },
  },
  {
    name: "/mcp/x/default with X-MCP-Readonly: true",
    path: `${MCP_PATH}/x/default`,
    headers: { [NARROWING_HEADERS.readOnly]: "true" },
    selects: { readOnly: true, toolsets: ["default"] },
  },
];

/** Asserts that calling `name` is answered as for a tool the server does not have. */
async function assertRefused(client: Client, name: string): Promise<void> {
  await assert.rejects(
    () => client.callTool({ name, arguments: toolArguments[name]!.args }),
    (error: Error) => error.message.includes(`Tool ${name} not found`),
    `${name} is refused as unknown`,
  );
}

for (const era of ["modern", "legacy"] as Era[]) {
  Deno.test(`HTTP, ${era} era: each header and path form narrows tools/list, serves a call inside it and refuses one outside`, async () => {
    await using h = startHttp({ routes: ALL_ROUTES });
    for (const form of FORMS) {
      const expected = listedUnder(form.selects);
      assert.ok(expected.length > 0 && expected.length < CATALOGUE.length, form.name);
      const client = await connectHttp(
        new URL(form.path, h.url),
        era,
        TOKEN,
        undefined,
        {},
        form.headers,
      );
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), expected, form.name);
        const inside = expected[0]!;
        const served = await client.callTool({
          name: inside,
          arguments: toolArguments[inside]!.args,
        });
        assert.notEqual(served.isError, true, `${form.name}: ${inside} answers`);
        const outside = CATALOGUE.find((t) =>
          !expected.includes(t.name) && !isAppTool(t.config._meta)
        )!;
        await assertRefused(client, outside.name);
      } finally {
        await client.close();
      }
    }
    assert.deepEqual(h.notices, [], "the server serves every tool: nothing asked is left out");
  });
}

Deno.test("HTTP: a request cannot widen a narrower server; what it asks beyond is left out and logged once", async () => {
  const server: Partial<ToolSelection> = { toolsets: ["builds"], readOnly: true };
  await using h = startHttp({ routes: ALL_ROUTES, selection: server });
  const served = listedUnder({ readOnly: false, ...server });
  const widen = {
    [NARROWING_HEADERS.toolsets]: "all",
    [NARROWING_HEADERS.readOnly]: "false",
  };
  const wide = await connectHttp(h.url, "modern", TOKEN, undefined, {}, widen);
  try {
    assert.deepEqual((await wide.listTools()).tools.map((t) => t.name), served);
    await assertRefused(wide, "set_build_status");
  } finally {
    await wide.close();
  }
  assert.equal(h.notices.length, 1, h.notices.join("\n"));
  const beyond = listedUnder({ readOnly: false, toolsets: ["all"] })
    .filter((name) => !served.includes(name));
  // Unsafe and safe writes too: the request asked for every tool, writes included.
  assert.ok(h.notices[0]!.includes(`${NARROWING_HEADERS.toolsets}: all`), h.notices[0]);
  for (const name of beyond) assert.ok(h.notices[0]!.includes(name), `${name} named`);
  const both = { [NARROWING_HEADERS.toolsets]: "pull_requests,builds" };
  for (let i = 0; i < 2; i++) {
    const client = await connectHttp(h.url, "modern", TOKEN, undefined, {}, both);
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), served);
      await assertRefused(client, "get_pull_request");
    } finally {
      await client.close();
    }
  }
  assert.equal(h.notices.length, 2, "the second request of the same ask logs nothing more");
  const left = listedUnder({ readOnly: false, toolsets: ["pull_requests", "builds"] })
    .filter((name) => !served.includes(name));
  assert.ok(left.includes("get_pull_request") && left.includes("set_build_status"));
  assert.ok(h.notices[1]!.includes(`does not serve ${left.length} of those tools`), h.notices[1]);
  for (const name of left) assert.ok(h.notices[1]!.includes(name), `${name} named`);
  const readOnly = { ...both, [NARROWING_HEADERS.readOnly]: "yes" };
  const reader = await connectHttp(h.url, "modern", TOKEN, undefined, {}, readOnly);
  try {
    assert.deepEqual((await reader.listTools()).tools.map((t) => t.name), served);
  } finally {
    await reader.close();
  }
  const readable = listedUnder({ readOnly: true, toolsets: ["pull_requests", "builds"] })
    .filter((name) => !served.includes(name));
  assert.ok(h.notices[2]!.includes(`does not serve ${readable.length} of those tools`));
  assert.ok(!h.notices[2]!.includes("set_build_status"), "a read-only request asks no write");
});

Deno.test("HTTP: resources, prompts, completions and instructions follow the request's tools", async () => {
  await using h = startHttp({ routes: ALL_ROUTES });
  const builds = await connectHttp(h.url, "modern", TOKEN, undefined, {}, {
    [NARROWING_HEADERS.toolsets]: "builds",
  });
  try {
    const capabilities = builds.getServerCapabilities() ?? {};
    assert.equal(capabilities.resources, undefined, "no template reads as a builds tool");
    assert.equal(capabilities.prompts, undefined, "every prompt names a pull request tool");
    const instructions = builds.getInstructions() ?? "";
    assert.match(instructions, /\bbuilds \(get_build_status, /);
    assert.doesNotMatch(instructions, /pull_requests \(/);
  } finally {
    await builds.close();
  }
  const names = ["get_pull_request", "get_pr_diff", "list_pr_comments"];
  const review = await connectHttp(h.url, "modern", TOKEN, undefined, {}, {
    [NARROWING_HEADERS.tools]: names.join(","),
  });
  try {
    const exposed = new Set(names);
    const { resourceTemplates } = await review.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      offeredTemplates(exposed).map((t) => t.uriTemplate),
    );
    assert.ok(resourceTemplates.length > 0 && resourceTemplates.length < 5);
    const { prompts } = await review.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), offeredPrompts(exposed).map((p) => p.name));
    const pr = `bitbucket://projects/PROJ/repos/web/pull-requests/42`;
    const read = await review.readResource({ uri: pr });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).pullRequest.id, 42);
    const requests = h.fixture.requests.length;
    await assert.rejects(
      () => review.readResource({ uri: "bitbucket://projects/PROJ/repos/web/files/README.md" }),
      /offers no file resources, as it does not expose get_file_content/,
    );
    await assert.rejects(
      () =>
        review.complete({
          ref: {
            type: "ref/resource",
            uri: "bitbucket://projects/{project}/repos/{repo}/files/{+path}{?at}",
          },
          argument: { name: "project", value: "P" },
        }),
      /no resource template/,
    );
    assert.equal(h.fixture.requests.length, requests, "nothing refused reached Bitbucket");
    assert.ok(h.fixture.requests.some((r) => r.path === PR));
  } finally {
    await review.close();
  }
});

Deno.test("HTTP: a toolset or tool the catalogue does not have is refused with 400, naming it", async () => {
  await using h = startHttp({ routes: ALL_ROUTES });
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  const post = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(new URL(path, h.url), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${TOKEN}`,
        ...headers,
      },
      body: initialize,
    });
    return { status: response.status, text: await response.text() };
  };
  const path = await post(`${MCP_PATH}/x/pull_request`);
  assert.equal(path.status, 400);
  assert.match(path.text, /unknown toolset pull_request \(hint: the toolsets are /);
  const header = await post(MCP_PATH, { [NARROWING_HEADERS.tools]: "get_pull_request,nope" });
  assert.equal(header.status, 400);
  assert.match(header.text, /unknown tool nope/);
  const empty = await post(MCP_PATH, { [NARROWING_HEADERS.toolsets]: " , " });
  assert.equal(empty.status, 200, "an empty list narrows nothing");
  assert.equal((await post(`${MCP_PATH}/x/`)).status, 404);
  assert.equal(h.fixture.requests.length, 0);
});
