/**
 * Confinement (`--project`, `--repo`): src/policy/confinement.ts and
 * src/policy/confined_registration.ts, through a connected client, and the command
 * line (start-up errors, check).
 */
import assert from "node:assert/strict";
import { Confinement } from "../../src/policy/confinement.ts";
import { parseConfinement } from "../../src/cli/flag_values.ts";
import { StartupError } from "../../src/config.ts";
import { confineRegistration } from "../../src/policy/confined_registration.ts";
import { MANIFEST_TOOLS } from "../../src/tools/manifest.ts";
import { toolRegistration } from "../../src/policy/registration.ts";
import { PROJECT_REPOS } from "../../testing/cases/features.ts";
import { repositories } from "../../testing/cases/repositories.ts";
import { projects } from "../../testing/cases/projects.ts";
import { system } from "../../testing/cases/system.ts";
import { refs } from "../../testing/cases/refs.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import { connect, TEST_TOKEN } from "../../testing/harness.ts";
import { connectHttp, startHttp } from "../support/http_server.ts";
import { runMain, scopedPermissions } from "../../testing/spawn.ts";

const WEB = new Confinement([], [{ project: "PROJ", repo: "web" }]);
const PROJ = new Confinement(["PROJ"], []);
const TWO = new Confinement([], [{ project: "PROJ", repo: "web" }, {
  project: "OPS",
  repo: "infra",
}]);
const BRANCHES = "/api/latest/projects/PROJ/repos/web/branches";

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** The error a request rejected with. */
async function failure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error("the request succeeded");
}

Deno.test("confinement: one repository fills in project and repo", async () => {
  await using h = await connect({ routes: refs.routes, confinement: WEB });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { limit: 3 },
  }) as Result;
  assert.ok(!result.isError, JSON.stringify(result));
  assert.deepEqual(h.fixture.requests.map((r) => r.path), [BRANCHES]);
});

Deno.test("confinement: one project fills in project; the repository is still asked for", async () => {
  await using h = await connect({ routes: refs.routes, confinement: PROJ });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { repo: "web", limit: 3 },
  }) as Result;
  assert.ok(!result.isError, JSON.stringify(result));
  assert.deepEqual(h.fixture.requests.map((r) => r.path), [BRANCHES]);
});

Deno.test("confinement: a project or repository outside it is refused, naming what is allowed, with no request", async () => {
  await using h = await connect({ routes: refs.routes, confinement: TWO });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ project: "PROJ", repo: "api" }, /PROJ\/api is outside/],
    [{ project: "SECRET", repo: "web" }, /project SECRET is outside/],
    [{ repo: "web" }, /naming no project is outside/],
  ];
  for (const [args, says] of cases) {
    const result = await h.client.callTool({ name: "list_branches", arguments: args }) as Result;
    assert.equal(result.isError, true, JSON.stringify(args));
    const text = result.content[0]?.text ?? "";
    assert.match(text, says);
    assert.match(text, /it allows PROJ\/web, OPS\/infra/);
  }
  const search = await h.client.callTool({
    name: "search_code",
    arguments: { query: "secret" },
  }) as Result;
  assert.equal(search.isError, true, "a server-wide code search is refused");
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("confinement: with one repository the published schemas take no project or repo", async () => {
  await using h = await connect({ confinement: WEB });
  const { tools } = await h.client.listTools();
  for (const tool of tools) {
    const properties = Object.keys(tool.inputSchema.properties ?? {});
    assert.ok(!properties.includes("project") && !properties.includes("repo"), tool.name);
    assert.ok(!(tool.inputSchema.required ?? []).some((k) => k === "project" || k === "repo"));
  }
  await using wide = await connect({ confinement: TWO });
  const branches = (await wide.client.listTools()).tools.find((t) => t.name === "list_branches");
  assert.deepEqual(branches?.inputSchema.required, ["project", "repo"], "two repositories: kept");
});

Deno.test("confinement: tools declared withheld, and only those, are not listed; the instructions state it", async () => {
  await using h = await connect({ confinement: TWO });
  const names = (await h.client.listTools()).tools.map((t) => t.name);
  await using open = await connect();
  const unconfined = (await open.client.listTools()).tools.map((t) => t.name);
  const withheld = new Set(
    MANIFEST_TOOLS.filter((t) => t.bounding?.mode === "withhold").map((t) => t.name),
  );
  assert.ok(withheld.has("get_build_status") && withheld.has("get_build_summary"));
  assert.deepEqual(names, unconfined.filter((name) => !withheld.has(name)));
  assert.match(h.client.getInstructions() ?? "", /confined to PROJ\/web, OPS\/infra/);
  assert.match(h.client.getInstructions() ?? "", /outsideConfinement counts the items left out/);
  assert.ok(unconfined.includes("get_build_status"));
  assert.doesNotMatch(open.client.getInstructions() ?? "", /confined/);
});

Deno.test("confinement: search_repositories and list_projects list only what is allowed", async () => {
  await using h = await connect({
    routes: [...repositories.routes, ...projects.routes],
    confinement: new Confinement([], [{ project: "PROJ", repo: "web-api" }]),
  });
  const repos = await h.client.callTool({ name: "search_repositories", arguments: {} }) as Result;
  const listed = repos.structuredContent?.repositories as { slug: string }[];
  assert.deepEqual(listed.map((r) => r.slug), ["web-api"]);
  assert.deepEqual(JSON.parse(repos.content[0]!.text!).repositories.length, 1);
  assert.equal(h.fixture.requests[0]?.query.projectkey, "PROJ", "the one project is filled in");
  const found = await h.client.callTool({ name: "list_projects", arguments: {} }) as Result;
  const keys = (found.structuredContent?.projects as { key: string }[]).map((p) => p.key);
  assert.deepEqual(keys, ["PROJ"]);
});

Deno.test("confinement: a resource or prompt outside it is refused; completions offer what is allowed", async () => {
  await using h = await connect({ routes: PROJECT_REPOS, confinement: WEB });
  const read = await failure(
    h.client.readResource({ uri: "bitbucket://projects/OPS/repos/infra/pull-requests/1" }),
  );
  assert.equal(read.code, -32602);
  assert.match(read.message, /project OPS is outside .*it allows PROJ\/web/);
  const prompt = await failure(h.client.getPrompt({
    name: "review_pull_request",
    arguments: { project: "PROJ", repo: "web-api", pr_id: "1" },
  }));
  assert.equal(prompt.code, -32602);
  assert.match(prompt.message, /PROJ\/web-api is outside/);
  assert.equal(h.fixture.requests.length, 0);
  const review = { type: "ref/prompt" as const, name: "review_pull_request" };
  const repo = await h.client.complete({
    ref: review,
    argument: { name: "repo", value: "" },
    context: { arguments: {} },
  });
  assert.deepEqual(repo.completion.values, ["web"], "web-api is left out; the project filled in");
  const other = await h.client.complete({
    ref: review,
    argument: { name: "pr_id", value: "" },
    context: { arguments: { project: "OPS", repo: "infra" } },
  });
  assert.deepEqual(other.completion.values, []);
  assert.deepEqual(h.fixture.requests.map((r) => r.path), ["/api/latest/projects/PROJ/repos"]);
});

Deno.test("confinement: with one repository the pull request prompts take pr_id alone, and fill in the rest", async () => {
  await using h = await connect({ confinement: WEB });
  const argumentsOf = async (c: typeof h.client) =>
    (await c.listPrompts()).prompts.find((p) => p.name === "review_pull_request")?.arguments
      ?.map((a) => a.name);
  assert.deepEqual(await argumentsOf(h.client), ["pr_id"]);
  const got = await h.client.getPrompt({ name: "review_pull_request", arguments: { pr_id: "42" } });
  const link = got.messages[1]?.content as { uri?: string };
  assert.equal(link.uri, "bitbucket://projects/PROJ/repos/web/pull-requests/42");
  await using wide = await connect({ confinement: TWO });
  assert.deepEqual(await argumentsOf(wide.client), ["project", "repo", "pr_id"]);
});

Deno.test("confinement: the flags parse to it; a malformed value names the form", () => {
  assert.equal(parseConfinement(undefined, undefined), undefined);
  assert.equal(parseConfinement(["PROJ"], ["OPS/infra"])?.describe(), "project PROJ, OPS/infra");
  for (const bad of ["web", "PROJ/web/x", "PROJ/", "a b/web"]) {
    assert.throws(() => parseConfinement(undefined, [bad]), StartupError, bad);
  }
  assert.throws(() => parseConfinement([], undefined), /at least one value/);
});

const ENV = { BITBUCKET_URL: "https://bitbucket.example.com", BITBUCKET_TOKEN: TEST_TOKEN };

Deno.test("confinement: a malformed --repo stops start-up with one actionable line and exit 2", async () => {
  const out = await runMain(scopedPermissions("bitbucket.example.com"), ["--repo", "web"], ENV);
  assert.equal(out.code, 2, out.stderr);
  assert.equal(out.stdout, "");
  assert.deepEqual(out.stderr.trimEnd().split("\n"), [
    'bitbucket-mcp: --repo takes PROJECT/slug, e.g. --repo PROJ/web, not "web"',
  ]);
});

Deno.test("confinement: check reports it, naming the withheld tools with the reason they declare", async () => {
  await using fixture = fixtureWith(system.routes);
  const env = { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN };
  const host = new URL(fixture.url).host;
  const out = await runMain(scopedPermissions(host), [
    "check",
    "--repo",
    "PROJ/web",
    "--toolsets",
    "all",
  ], env);
  assert.equal(out.code, 0, out.stdout + out.stderr);
  const tools = out.stdout.split("\n").find((line) => /\btools\b/.test(line)) ?? "";
  const withheld = MANIFEST_TOOLS.filter((t) => t.bounding?.mode === "withhold");
  const whys = new Set(withheld.map((t) => t.bounding?.mode === "withhold" && t.bounding.why));
  assert.deepEqual(withheld.map((t) => t.name), ["get_build_status", "get_build_summary"]);
  assert.equal(whys.size, 1, "one reason, said once");
  assert.ok(
    tools.endsWith(
      `; confined to PROJ/web (${withheld.map((t) => t.name).join(", ")} not listed: ${
        [...whys][0]
      })`,
    ),
    tools,
  );
});

Deno.test("confinement: a listed tool (as a started server has it) is confined the same way", async () => {
  const listed = MANIFEST_TOOLS.find((t) => t.name === "list_branches")!;
  const registration = confineRegistration(
    toolRegistration(listed, () => {
      throw new Error("no call is made");
    }),
    WEB,
    listed,
  );
  const standard = registration.config.inputSchema["~standard"];
  const json = standard.jsonSchema.input({ target: "draft-2020-12" }) as {
    properties: Record<string, unknown>;
    required: string[];
  };
  assert.ok(!("project" in json.properties) && !("repo" in json.properties));
  assert.deepEqual(json.required, []);
  const filled = await standard.validate({ limit: 3 });
  assert.deepEqual("value" in filled ? filled.value : filled, {
    project: "PROJ",
    repo: "web",
    limit: 3,
  });
  const refused = await standard.validate({ project: "OPS", repo: "infra" });
  assert.match(
    "issues" in refused ? refused.issues?.[0]?.message ?? "" : "",
    /Cannot call list_branches: project OPS is outside .*it allows PROJ\/web/,
  );
});

Deno.test("confinement: over HTTP, the same listing, instructions and refusal", async () => {
  await using h = startHttp({ routes: refs.routes, serverToken: TEST_TOKEN, confinement: WEB });
  const client = await connectHttp(h.url, "modern");
  try {
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === "get_build_status"));
    const branches = tools.find((t) => t.name === "list_branches");
    assert.ok(branches && !("project" in (branches.inputSchema.properties ?? {})));
    assert.match(client.getInstructions() ?? "", /confined to PROJ\/web: tools take no project/);
    const refused = await client.callTool({
      name: "list_branches",
      arguments: { project: "OPS", repo: "infra" },
    }) as Result;
    assert.equal(refused.isError, true);
    assert.equal(h.fixture.requests.length, 0);
    const filled = await client.callTool({
      name: "list_branches",
      arguments: { limit: 3 },
    }) as Result;
    assert.ok(!filled.isError, JSON.stringify(filled));
    assert.deepEqual(h.fixture.requests.map((r) => r.path), [BRANCHES]);
  } finally {
    await client.close();
  }
});

Deno.test("confinement: tools marks the unbounded tools as withheld", async () => {
  const { toolsListing } = await import("../../src/cli/tools_command.ts");
  const { CATALOGUE } = await import("../../src/tools/catalogue.ts");
  const rows = JSON.parse(toolsListing(CATALOGUE, { readOnly: false, confinement: WEB }, true))
    .tools as { name: string; exposed: boolean }[];
  const withheld = rows.filter((r) => !r.exposed).map((r) => r.name);
  assert.deepEqual(withheld, ["get_build_status", "get_build_summary"]);
});
