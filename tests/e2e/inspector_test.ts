/**
 * A real third-party client: the MCP Inspector's CLI mode lists the tools and
 * calls one, and lists the resources and reads one, against the fixture
 * Bitbucket, over stdio (spawning main.ts the way a user's mcpServers entry
 * does) and over Streamable HTTP; and its schema portability check
 * (`--strict`) finds nothing in any tool's schema, views included.
 *
 * The Inspector runs on Node through `npx`, pinned: under Deno it cannot run
 * without --allow-all (see README, "Compatibility"). Its package declares
 * Node >= 22.19, but its CLI mode works on the Node 20 this project's
 * machines have. Ignored where `npx` is not installed.
 */
import assert from "node:assert/strict";
import { DASHBOARD_BY_ROLE } from "../../testing/cases/features.ts";
import { PR, pullRequests } from "../../testing/cases/pull_requests.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { startHttp } from "../support/http_server.ts";
import { ALL_TOOL_NAMES } from "../support/payload.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { stdioServerParams } from "../support/stdio_server.ts";

/** The Inspector release these tests pin. */
const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

function npxInstalled(): boolean {
  try {
    return new Deno.Command("npx", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

const ignore = !npxInstalled();

/** Runs `npx <INSPECTOR> --cli <args>`: the JSON it prints, and what it says on stderr. */
async function inspectorRun(args: string[]): Promise<{ result: unknown; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command("npx", {
    args: ["--yes", INSPECTOR, "--cli", ...args],
    env: { NO_COLOR: "1", npm_config_update_notifier: "false", npm_config_fund: "false" },
    stdin: "null",
  }).output();
  const out = new TextDecoder().decode(stdout);
  const said = new TextDecoder().decode(stderr);
  assert.equal(code, 0, `inspector exited ${code}: ${said}`);
  return { result: JSON.parse(out), stderr: said };
}

/** Runs `npx <INSPECTOR> --cli <args>` and parses the JSON it prints. */
async function inspector(args: string[]): Promise<unknown> {
  return (await inspectorRun(args)).result;
}

/**
 * The schema portability problems `--strict` reports on stderr, one per
 * block (`Warning: tool "name"` then `Path: …`), as `Warning name path`.
 */
function portabilityProblems(stderr: string): string[] {
  return [...stderr.matchAll(/^(Warning|Error): tool "([^"]+)"\r?\n\s+Path: (\S+)/gm)]
    .map((m) => `${m[1]} ${m[2]} ${m[3]}`);
}

/** `--cli` arguments that spawn main.ts over stdio against the fixture, with `serverArgs`. */
function stdioTarget(fixtureUrl: string, serverArgs: string[]): string[] {
  const params = stdioServerParams(fixtureUrl, serverArgs);
  return [
    "-e",
    `BITBUCKET_URL=${params.env.BITBUCKET_URL}`,
    "-e",
    `BITBUCKET_TOKEN=${params.env.BITBUCKET_TOKEN}`,
    params.command,
    ...params.args,
  ];
}

const LIST_TAGS = ["--tool-name", "list_tags", "--tool-arg", "project=PROJ", "repo=web"];

/** Checks the list_tags answer as the Inspector prints it. */
function assertTags(result: unknown): void {
  const r = result as {
    isError?: boolean;
    structuredContent: { tags: { displayId: string }[] };
    content: { type: string; text: string }[];
  };
  assert.notEqual(r.isError, true);
  assert.equal(r.structuredContent.tags[0]?.displayId, "v1.0.0");
  assert.deepEqual(JSON.parse(r.content[0]!.text), r.structuredContent);
}

Deno.test({
  name: "MCP Inspector CLI over stdio: tools/list shows the catalogue, tools/call answers",
  ignore,
  async fn() {
    const fixture = startFixtureBitbucket(refs.routes);
    try {
      const listed = await inspector([
        ...stdioTarget(fixture.url, ["--yolo", "--toolsets", "all"]),
        "--method",
        "tools/list",
      ]) as { tools: { name: string }[] };
      assert.deepEqual(listed.tools.map((t) => t.name), ALL_TOOL_NAMES);
      assertTags(
        await inspector([
          ...stdioTarget(fixture.url, ["--toolsets", "all"]),
          "--method",
          "tools/call",
          ...LIST_TAGS,
        ]),
      );
      assert.ok(fixture.requests.some((r) => r.path.endsWith("/tags")));
      assert.ok(
        fixture.requests.every((r) => r.headers.authorization === `Bearer ${TEST_TOKEN}`),
      );
    } finally {
      await fixture.close();
    }
  },
});

Deno.test({
  name:
    "MCP Inspector CLI --strict: no tool of --toolsets all, views included, has a schema portability problem; a probe with two has both found",
  ignore,
  async fn() {
    // The check finds what it looks for: a stand-in server whose one tool has two problems.
    const probe = await inspectorRun([
      "deno",
      "run",
      "--no-prompt",
      new URL("../support/portability_probe.ts", import.meta.url).pathname,
      "--method",
      "tools/list",
      "--strict",
    ]);
    assert.deepEqual(portabilityProblems(probe.stderr), [
      "Warning probe inputSchema.properties.either",
      "Warning probe inputSchema.properties.anything",
    ], probe.stderr);
    const fixture = startFixtureBitbucket([]);
    try {
      const { result, stderr } = await inspectorRun([
        "--advertise-apps",
        ...stdioTarget(fixture.url, ["--yolo", "--toolsets", "all"]),
        "--method",
        "tools/list",
        "--strict",
      ]);
      const listed = (result as { tools: { name: string }[] }).tools.map((t) => t.name);
      assert.deepEqual(listed, CATALOGUE.map((t) => t.name), "every tool, the views too");
      assert.deepEqual(portabilityProblems(stderr), [], stderr);
      assert.doesNotMatch(stderr, /\b[1-9]\d* (errors?|warnings?)\b/, stderr);
    } finally {
      await fixture.close();
    }
  },
});

/** The Inspector's arguments for the HTTP endpoint at `url`, sending `token` as a Bearer token. */
function httpTarget(url: URL, token: string): string[] {
  return [url.href, "--transport", "http", "--header", `Authorization: Bearer ${token}`];
}

Deno.test({
  name: "MCP Inspector CLI over Streamable HTTP: tools/call answers with its Authorization token",
  ignore,
  async fn() {
    await using h = startHttp({ routes: refs.routes });
    const token = "inspector-SECRET-4444";
    const target = httpTarget(h.url, token);
    assertTags(await inspector([...target, "--method", "tools/call", ...LIST_TAGS]));
    assert.deepEqual(
      new Set(h.fixture.requests.map((r) => r.headers.authorization)),
      new Set([`Bearer ${token}`]),
    );
  },
});

/** The pull request resource the Inspector reads. */
const PR_42 = "bitbucket://projects/PROJ/repos/web/pull-requests/42";

/** Checks the pull request resource as the Inspector prints it. */
function assertPr42(result: unknown): void {
  const r = result as { contents: { uri: string; mimeType: string; text: string }[] };
  assert.deepEqual(r.contents.map((c) => [c.uri, c.mimeType]), [[PR_42, "application/json"]]);
  assert.equal(JSON.parse(r.contents[0]!.text).pullRequest.id, 42);
}

Deno.test({
  name:
    "MCP Inspector CLI over stdio: resources/list shows your pull requests, resources/read reads one",
  ignore,
  async fn() {
    const fixture = startFixtureBitbucket([...DASHBOARD_BY_ROLE, ...pullRequests.routes]);
    try {
      const listed = await inspector([
        ...stdioTarget(fixture.url, []),
        "--method",
        "resources/list",
      ]) as { resources: { uri: string; title: string }[] };
      assert.deepEqual(listed.resources.map((r) => [r.uri, r.title]), [
        ["bitbucket://projects/PROJ/repos/api/pull-requests/7", "#7 Rate-limit the login endpoint"],
        [PR_42, "#42 Validate the login form before submitting"],
      ]);
      assertPr42(
        await inspector([
          ...stdioTarget(fixture.url, []),
          "--method",
          "resources/read",
          "--uri",
          PR_42,
        ]),
      );
      assert.ok(fixture.requests.some((r) => r.path === PR));
      assert.deepEqual(fixture.unmatched, []);
    } finally {
      await fixture.close();
    }
  },
});

Deno.test({
  name:
    "MCP Inspector CLI over Streamable HTTP: resources/read answers with its Authorization token",
  ignore,
  async fn() {
    await using h = startHttp({ routes: pullRequests.routes });
    const token = "inspector-SECRET-5555";
    const target = httpTarget(h.url, token);
    assertPr42(await inspector([...target, "--method", "resources/read", "--uri", PR_42]));
    assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.headers.authorization]), [
      [PR, `Bearer ${token}`],
    ]);
  },
});
