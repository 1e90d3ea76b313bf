/**
 * Every server-wide tool under a confinement, as an attacker would try it:
 * each tool's contract answer is replanted with items from inside and
 * outside the confinement (PROJ/web, PROJ/payments, OTHER/secrets), and no
 * item outside reaches the client, the result counting them in
 * `outsideConfinement`; a tool declared withheld is not listed, and one whose
 * items live in no project answers as it does unconfined. The tools are
 * found by their declared reach, so a new server-wide tool is tried here
 * without a line added.
 */
import assert from "node:assert/strict";
import { Confinement } from "../../src/policy/confinement.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import type { Tool } from "../../src/tools/kit/define.ts";
import { OUTSIDE_KEY } from "../../src/tools/kit/reach.ts";
import { toolArguments } from "../../testing/cases/mod.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";
import { connect } from "../../testing/harness.ts";

/** Where the planted items live: one repository, another of its project, one of another project. */
const PLANTED = [
  { project: "PROJ", repo: "web" },
  { project: "PROJ", repo: "payments" },
  { project: "OTHER", repo: "secrets" },
] as const;

/** The confinements tried, each with what it lets through, stated here, not asked of the server. */
const CONFINEMENTS = [
  {
    flag: "--repo PROJ/web",
    confinement: new Confinement([], [{ project: "PROJ", repo: "web" }]),
    repoInside: (project: string, repo: string) => project === "PROJ" && repo === "web",
    projectInside: (project: string) => project === "PROJ",
  },
  {
    flag: "--project PROJ",
    confinement: new Confinement(["PROJ"], []),
    repoInside: (project: string) => project === "PROJ",
    projectInside: (project: string) => project === "PROJ",
  },
];

const SERVER_WIDE = CATALOGUE.filter((tool) => tool.reach === "server");

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** A repository as Bitbucket names one inside an item. */
function isRepository(value: unknown): value is { slug: string; project: { key: string } } {
  const v = value as { slug?: unknown; project?: { key?: unknown } } | null;
  return typeof v?.slug === "string" && typeof v.project?.key === "string";
}

/**
 * `template` moved to `place`: every repository in it renamed; an item that is
 * itself a project (a key, no slug) takes the project's key. Says which it was.
 */
function moved(template: unknown, place: typeof PLANTED[number]) {
  const item = structuredClone(template) as Record<string, unknown>;
  let repositories = 0;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== "object" || value === null) return;
    if (isRepository(value)) {
      value.slug = place.repo;
      value.project.key = place.project;
      repositories++;
    }
    Object.values(value).forEach(walk);
  };
  walk(item);
  if (repositories > 0) return { item, kind: "repository" as const };
  if (typeof item.key === "string") {
    item.key = place.project;
    return { item, kind: "project" as const };
  }
  return undefined;
}

/** The first array of objects named `values` in an answer: the listed items. */
function listedIn(body: unknown): unknown[] | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === "values" && Array.isArray(value) && typeof value[0] === "object") return value;
    const inner = listedIn(value);
    if (inner) return inner;
  }
  return undefined;
}

/** A route's body as the fixture Bitbucket sends it. */
async function bodyOf(route: Route): Promise<unknown> {
  if (route.fixture) return JSON.parse(await Deno.readTextFile(`fixtures/${route.fixture}`));
  return structuredClone(route.body);
}

/**
 * `tool`'s contract case with its listing answers replanted: the routes, the
 * arguments (a page large enough for every planted item), and the kind of
 * place its items have. Fails naming the tool when nothing could be planted.
 */
async function planted(tool: Tool) {
  const entry = toolArguments[tool.name];
  assert.ok(entry, `${tool.name}: no contract case to plant items in`);
  let kind: "repository" | "project" | undefined;
  const routes: Route[] = [];
  for (const request of entry.requests) {
    const route = entry.routes.find((r) => r.method === request.method && r.path === request.path);
    if (!route) continue;
    const body = await bodyOf(route);
    const values = listedIn(body);
    const template = values?.[0];
    if (!values || template === undefined) continue;
    const items = PLANTED.map((place) => moved(template, place));
    if (items.some((i) => i === undefined)) continue;
    kind = items[0]!.kind;
    values.splice(0, values.length, ...items.map((i) => i!.item));
    const { query: _query, fixture: _fixture, ...rest } = route;
    routes.push({ ...rest, body });
  }
  assert.ok(
    kind,
    `${tool.name}: its contract answer holds no listed item naming a repository or project to plant`,
  );
  const takesLimit = "limit" in
    ((tool.convertedSchemas().input.properties ?? {}) as Record<string, unknown>);
  const args = { ...entry.args, ...(takesLimit ? { limit: 25 } : {}) };
  return { routes: [...routes, ...entry.routes], args, kind };
}

/** The one collection a result lists. */
function listed(result: Result): unknown[] {
  const arrays = Object.values(result.structuredContent ?? {}).filter(Array.isArray);
  assert.equal(arrays.length, 1, JSON.stringify(result.structuredContent));
  return arrays[0]!;
}

Deno.test("confined items: the catalogue has server-wide tools, each declaring how it is bounded", () => {
  assert.ok(SERVER_WIDE.length > 0);
  for (const tool of SERVER_WIDE) assert.ok(tool.bounding, tool.name);
  assert.ok(
    SERVER_WIDE.some((t) => t.name === "list_jira_issue_commits" && t.bounding?.mode === "drop"),
  );
});

for (const tool of SERVER_WIDE.filter((t) => t.bounding?.mode === "drop")) {
  Deno.test(`confined items: ${tool.name} drops every planted item outside, and counts them`, async () => {
    const { routes, args, kind } = await planted(tool);
    {
      await using open = await connect({ routes });
      const result = await open.client.callTool({ name: tool.name, arguments: args }) as Result;
      assert.ok(!result.isError, JSON.stringify(result));
      assert.equal(listed(result).length, PLANTED.length, "unconfined, every planted item shows");
      assert.equal(result.structuredContent?.[OUTSIDE_KEY], undefined);
    }
    for (const { flag, confinement, repoInside, projectInside } of CONFINEMENTS) {
      await using h = await connect({ routes, confinement });
      const result = await h.client.callTool({ name: tool.name, arguments: args }) as Result;
      assert.ok(!result.isError, `${flag}: ${JSON.stringify(result)}`);
      const inside = PLANTED.filter((p) =>
        kind === "project" ? projectInside(p.project) : repoInside(p.project, p.repo)
      );
      const outside = PLANTED.length - inside.length;
      assert.ok(outside > 0, `${flag}: something is planted outside`);
      assert.equal(listed(result).length, inside.length, flag);
      assert.equal(result.structuredContent?.[OUTSIDE_KEY], outside, flag);
      const text = result.content.map((c) => c.text ?? "").join("\n");
      const seen = JSON.stringify(result.structuredContent) + text;
      for (const place of PLANTED.filter((p) => !inside.includes(p))) {
        const marker = kind === "project" ? place.project : place.repo;
        assert.doesNotMatch(seen, new RegExp(`\\b${marker}\\b`), `${flag}: ${marker} reached it`);
      }
      assert.equal(JSON.parse(text)[OUTSIDE_KEY], outside, `${flag}: the text says it too`);
    }
  });
}

Deno.test("confined items: a withheld server-wide tool is not listed, and a call to it is refused", async () => {
  const withheld = SERVER_WIDE.filter((t) => t.bounding?.mode === "withhold");
  assert.ok(withheld.some((t) => t.name === "get_build_status"));
  for (const { flag, confinement } of CONFINEMENTS) {
    await using h = await connect({ routes: [], confinement });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    for (const tool of withheld) {
      assert.ok(!names.includes(tool.name), `${flag}: ${tool.name} is listed`);
      const args = toolArguments[tool.name]?.args ?? {};
      const answer = await h.client.callTool({ name: tool.name, arguments: args }).then(
        (result) => result.isError === true ? "refused" : JSON.stringify(result),
        (error: Error) => /not found/.test(error.message) ? "refused" : error.message,
      );
      assert.equal(answer, "refused", `${flag}: ${tool.name}`);
    }
    assert.deepEqual(h.fixture.requests, [], flag);
  }
});

Deno.test("confined items: a tool whose items live in no project answers as unconfined", async () => {
  for (const tool of SERVER_WIDE.filter((t) => t.bounding?.mode === "unplaced")) {
    const entry = toolArguments[tool.name]!;
    await using open = await connect({ routes: entry.routes });
    const unconfined = await open.client.callTool({ name: tool.name, arguments: entry.args });
    for (const { flag, confinement } of CONFINEMENTS) {
      await using h = await connect({ routes: entry.routes, confinement });
      const result = await h.client.callTool({ name: tool.name, arguments: entry.args });
      assert.deepEqual(result.structuredContent, unconfined.structuredContent, flag);
    }
  }
});
