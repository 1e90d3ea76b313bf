/**
 * The default set (src/tools/kit/default_set.ts) as a user meets it: the
 * real server started with no flags lists at most as many tools as Cursor
 * takes, views included, and every step of the review loop among them;
 * `--toolsets all` lists every tool; and the whole review loop runs from the
 * default set's tools alone, unsafe writes asking the person as they do by
 * default.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseFlags } from "../../src/cli/flags.ts";
import { CONFIRM_KEY } from "../../src/policy/confirmation.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";
import { DEFAULT_SET_LIMIT, LOOP_STEPS } from "../../src/tools/kit/default_set.ts";
import { ALL_ROUTES, toolArguments } from "../../testing/cases/mod.ts";
import { PR } from "../../testing/cases/pull_requests.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { APPS_CLIENT_CAPABILITIES, connect, firstText } from "../../testing/harness.ts";
import { assertNamedPayload } from "../support/payload.ts";
import { stdioServerParams } from "../support/stdio_server.ts";

/** The names the real server, started with `serverArgs`, lists to a client (one that draws views, with `apps`). */
async function listedBy(serverArgs: string[], apps: boolean): Promise<string[]> {
  const fixture = startFixtureBitbucket([]);
  const client = new Client(
    { name: "default-set", version: "0.0.0" },
    { capabilities: apps ? APPS_CLIENT_CAPABILITIES : {} },
  );
  try {
    await client.connect(new StdioClientTransport(stdioServerParams(fixture.url, serverArgs)));
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
    await fixture.close();
  }
}

Deno.test("default set: with no flags the server lists the review loop's tools, at most as many as Cursor takes, views included", async () => {
  const defaults = CATALOGUE.filter((t) => t.defaultFor !== undefined);
  assert.ok(defaults.length <= DEFAULT_SET_LIMIT, `${defaults.length} tools in the default set`);
  for (const step of Object.keys(LOOP_STEPS)) {
    assert.ok(defaults.some((t) => t.defaultFor === step), `a tool serves ${step}`);
  }
  const drawing = await listedBy([], true);
  assert.deepEqual(drawing, defaults.map((t) => t.name));
  assert.ok(drawing.length <= DEFAULT_SET_LIMIT);
  const plain = await listedBy([], false);
  assert.deepEqual(plain, defaults.filter((t) => !isAppTool(t.config._meta)).map((t) => t.name));
  assert.deepEqual(await listedBy(["--toolsets", "all"], true), CATALOGUE.map((t) => t.name));
  const withJira = await listedBy(["--toolsets", "default,jira"], false);
  const jira = CATALOGUE.filter((t) => t.toolset === "jira").map((t) => t.name);
  assert.deepEqual(withJira.filter((n) => !plain.includes(n)), jira, "default,jira adds jira");
});

Deno.test("default set: the review loop runs from its tools alone, each unsafe write asking the person", async () => {
  const flags = parseFlags([]);
  const asked: string[] = [];
  await using h = await connect({
    routes: ALL_ROUTES,
    selection: flags,
    elicit: (request) => {
      asked.push(String((request.params as { message?: string }).message));
      return { action: "accept", content: { [CONFIRM_KEY]: true } };
    },
  });
  const listed = new Set((await h.client.listTools()).tools.map((t) => t.name));
  assert.deepEqual(
    [...listed],
    selectTools(CATALOGUE, flags).filter((t) => !isAppTool(t.config._meta)).map((t) => t.name),
  );
  const called: string[] = [];
  const step = async (name: string, args = toolArguments[name]!.args) => {
    assert.ok(listed.has(name), `${name} is in the default set`);
    const result = await h.client.callTool({ name, arguments: args });
    assertNamedPayload(CATALOGUE.find((t) => t.name === name)!, result);
    called.push(name);
    return { out: result.structuredContent as Record<string, unknown>, text: firstText(result) };
  };
  // Find the pull request, read it, its diff and its threads.
  const found = await step("list_pull_requests");
  assert.ok((found.out.pullRequests as { id: number }[]).some((pr) => pr.id === 42));
  const pr = (await step("get_pull_request")).out.pullRequest as { id: number; version: number };
  assert.equal(pr.id, 42);
  assert.match((await step("get_pr_diff")).text, /^diff --git /m);
  await step("list_pr_comments");
  await step("list_pr_tasks");
  // Comment, review, check the builds and whether it can merge; read the code around it.
  await step("add_pr_comment");
  await step("submit_pr_review");
  await step("get_build_status");
  await step("get_pr_merge_status");
  await step("search_code");
  await step("get_file_content");
  // Open another, update this one, merge it.
  await step("list_branches");
  await step("create_pull_request");
  await step("update_pull_request");
  const merged = await step("merge_pull_request");
  assert.equal((merged.out.pullRequest as { state: string }).state, "MERGED");
  assert.ok(h.fixture.requests.some((r) => r.method === "POST" && r.path === `${PR}/merge`));
  const unsafe = called.filter((name) =>
    CATALOGUE.find((t) => t.name === name)!.access.level === "unsafe write"
  );
  assert.ok(unsafe.length >= 2, `unsafe writes called: ${unsafe.join(", ")}`);
  assert.ok(asked.length >= unsafe.length, "each unsafe write asked the person first");
  const steps = new Set(called.map((name) => CATALOGUE.find((t) => t.name === name)!.defaultFor));
  assert.deepEqual(
    [...steps].sort(),
    Object.keys(LOOP_STEPS).filter((s) => s !== "view").sort(),
    "every step of the loop but the view (drawn by the host) was taken",
  );
  assert.deepEqual(h.fixture.unmatched, [], "every request had an answer");
});
