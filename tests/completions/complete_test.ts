/**
 * Completions through a real client, on both eras in memory and over HTTP:
 * every kind of argument, for prompt arguments and template variables alike,
 * from the listing Bitbucket answered; at most 100 values; one request while
 * typing (the per-caller cache), never one caller's answers for another;
 * nothing asked when the context lacks what the listing needs.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { PROJECT_REPOS } from "../../testing/cases/features.ts";
import { commits } from "../../testing/cases/commits.ts";
import { projects } from "../../testing/cases/projects.ts";
import { pullRequests, REPO } from "../../testing/cases/pull_requests.ts";
import { refs } from "../../testing/cases/refs.ts";
import { source } from "../../testing/cases/source.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";
import { connect } from "../../testing/harness.ts";
import { connectHttp, type Era, startHttp } from "../support/http_server.ts";

const ERAS: Era[] = ["modern", "legacy"];
const T = "bitbucket://projects/{project}/repos/{repo}";
const PR_TEMPLATE = `${T}/pull-requests/{id}`;
const FILE_TEMPLATE = `${T}/files/{+path}{?at}`;
const COMMIT_TEMPLATE = `${T}/commits/{id}`;
const REVIEW = { type: "ref/prompt" as const, name: "review_pull_request" };
const IN_WEB = { project: "PROJ", repo: "web" };

const ROUTES: Route[] = [
  ...PROJECT_REPOS,
  {
    method: "GET",
    path: "/api/latest/projects/PROJ/repos/nope/pull-requests",
    status: 404,
    fixture: "errors/repository-not-found.json",
  },
  // The history ends after the fixture's three commits.
  {
    method: "GET",
    path: `${REPO}/commits`,
    query: { start: "3" },
    body: { size: 0, limit: 97, isLastPage: true, start: 3, values: [] },
  },
  ...projects.routes,
  ...pullRequests.routes,
  ...refs.routes,
  ...source.routes,
  ...commits.routes,
];

type Ref = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** One completion: what is completed, with what typed, in what context. */
interface Case {
  what: string;
  ref: Ref;
  argument: string;
  value: string;
  context?: Record<string, string>;
  values: string[];
  /** The requests Bitbucket receives, as `path query`. */
  requests: string[];
}

const PROJECTS = [
  '/api/latest/projects {"start":"0","limit":"1000"}',
  '/api/latest/projects {"start":"2","limit":"998"}',
];

const CASES: Case[] = [
  {
    what: "project keys (a prompt's), by key or by name",
    ref: REVIEW,
    argument: "project",
    value: "p",
    values: ["PROJ", "PLAT", "OPS"], // PROJ and PLAT by key; OPS by its name, Operations
    requests: PROJECTS,
  },
  {
    what: "project keys (a template's)",
    ref: { type: "ref/resource", uri: FILE_TEMPLATE },
    argument: "project",
    value: "OP",
    values: ["OPS"],
    // The same listing as the prompt's, already asked for on this connection.
    requests: [],
  },
  {
    what: "repository slugs, given the project",
    ref: { type: "ref/resource", uri: PR_TEMPLATE },
    argument: "repo",
    value: "web-",
    context: { project: "PROJ" },
    values: ["web-api"],
    requests: ['/api/latest/projects/PROJ/repos {"start":"0","limit":"1000"}'],
  },
  {
    what: "open pull requests by id",
    ref: REVIEW,
    argument: "pr_id",
    value: "4",
    context: IN_WEB,
    values: ["43", "42"],
    requests: [`${REPO}/pull-requests {"state":"OPEN","start":"0","limit":"100"}`],
  },
  {
    what: "open pull requests by title (a template's id)",
    ref: { type: "ref/resource", uri: `${PR_TEMPLATE}/diff` },
    argument: "id",
    value: "LOGIN",
    context: IN_WEB,
    values: ["42"],
    requests: [], // the listing the prompt's pr_id asked for
  },
  {
    what: "refs: branches, then tags, Bitbucket filtering by the text typed",
    ref: { type: "ref/resource", uri: FILE_TEMPLATE },
    argument: "at",
    value: "re",
    context: IN_WEB,
    // Those starting with it first, then those containing it; the fixture does not filter.
    values: ["release/2.0", "feature/login"],
    requests: [
      `${REPO}/branches {"filterText":"re","start":"0","limit":"100"}`,
      `${REPO}/branches {"filterText":"re","start":"3","limit":"97"}`,
      `${REPO}/tags {"filterText":"re","start":"0","limit":"100"}`,
    ],
  },
  {
    what: "file paths at a ref, from the directory typed",
    ref: { type: "ref/resource", uri: FILE_TEMPLATE },
    argument: "path",
    value: "src/l",
    context: { ...IN_WEB, at: "main" },
    values: ["src/lib/format.ts", "src/lib/parse.ts"],
    requests: [
      `${REPO}/files/src {"at":"main","start":"0","limit":"1000"}`,
      `${REPO}/files/src {"at":"main","start":"2","limit":"998"}`,
    ],
  },
  {
    what: "file paths from the root, at the default branch",
    ref: { type: "ref/resource", uri: FILE_TEMPLATE },
    argument: "path",
    value: "",
    context: IN_WEB,
    values: [".gitignore", "README.md", "src/app.ts", "src/lib/format.ts"],
    requests: [`${REPO}/files {"start":"0","limit":"1000"}`],
  },
  {
    what: "commit ids",
    ref: { type: "ref/resource", uri: COMMIT_TEMPLATE },
    argument: "id",
    value: "1F0",
    context: IN_WEB,
    values: ["1f0e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6"],
    requests: [
      `${REPO}/commits {"start":"0","limit":"100"}`,
      `${REPO}/commits {"start":"3","limit":"97"}`,
    ],
  },
];

/** The requests a fixture saw, as `path query` (all are GETs). */
function seen(h: { fixture: { requests: { method: string; path: string; query: unknown }[] } }) {
  assert.ok(h.fixture.requests.every((r) => r.method === "GET"));
  return h.fixture.requests.map((r) => `${r.path} ${JSON.stringify(r.query)}`);
}

/** Asks `client` to complete. */
function complete(
  client: Client,
  ref: Ref,
  name: string,
  value: string,
  context?: Record<string, string>,
) {
  return client.complete({
    ref,
    argument: { name, value },
    ...(context ? { context: { arguments: context } } : {}),
  });
}

/** The error a call rejected with. */
async function failure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error("the call succeeded");
}

for (const era of ERAS) {
  Deno.test(`completions, ${era}: every kind of key, from what Bitbucket lists`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    assert.deepEqual(h.client.getServerCapabilities()?.completions, {});
    for (const c of CASES) {
      h.fixture.requests.length = 0;
      const { completion } = await complete(h.client, c.ref, c.argument, c.value, c.context);
      assert.deepEqual(
        completion,
        { values: c.values, total: c.values.length, hasMore: false },
        c.what,
      );
      // Branches and tags are asked for at once: in either order.
      assert.deepEqual(seen(h).sort(), [...c.requests].sort(), c.what);
    }
  });

  Deno.test(`completions, ${era}: typing asks Bitbucket once; a complete answer serves what is typed next`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    for (const typed of ["", "P", "PR", "PRO"]) {
      await complete(h.client, REVIEW, "project", typed);
    }
    assert.deepEqual(seen(h), PROJECTS);
    h.fixture.requests.length = 0;
    // Refs: the answer for "" held every ref, so "fe" and "feat" filter it here.
    const first = await complete(
      h.client,
      { type: "ref/resource", uri: FILE_TEMPLATE },
      "at",
      "",
      IN_WEB,
    );
    assert.deepEqual(first.completion.values, [
      "main",
      "feature/login",
      "release/2.0",
      "hotfix/typo",
      "v1.0.0",
      "v1.1.0",
    ]);
    const requests = seen(h).length;
    const next = await complete(
      h.client,
      { type: "ref/resource", uri: FILE_TEMPLATE },
      "at",
      "feat",
      IN_WEB,
    );
    assert.deepEqual(next.completion.values, ["feature/login"]);
    assert.equal(seen(h).length, requests);
    // Paths: the root listing was complete, so a directory's paths come from it.
    h.fixture.requests.length = 0;
    await complete(h.client, { type: "ref/resource", uri: FILE_TEMPLATE }, "path", "", IN_WEB);
    const deeper = await complete(
      h.client,
      { type: "ref/resource", uri: FILE_TEMPLATE },
      "path",
      "src/lib/",
      IN_WEB,
    );
    assert.deepEqual(deeper.completion.values, ["src/lib/format.ts"]);
    assert.deepEqual(seen(h), [`${REPO}/files {"start":"0","limit":"1000"}`]);
  });

  Deno.test(`completions, ${era}: missing or invalid context, or a value past its limit, completes to nothing unasked`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const nothing = { values: [], total: 0, hasMore: false };
    const cases: [Ref, string, string, Record<string, string> | undefined][] = [
      [REVIEW, "repo", "w", undefined],
      [REVIEW, "pr_id", "4", { project: "PROJ" }],
      [REVIEW, "pr_id", "4", { project: "..", repo: "web" }],
      [{ type: "ref/resource", uri: FILE_TEMPLATE }, "path", "src", { project: "PROJ" }],
      [{ type: "ref/resource", uri: FILE_TEMPLATE }, "path", "src//x", IN_WEB],
      [{ type: "ref/resource", uri: FILE_TEMPLATE }, "path", "s", {
        ...IN_WEB,
        at: "x".repeat(1025),
      }],
      [REVIEW, "project", "P".repeat(257), undefined],
      [REVIEW, "no_such_argument", "", IN_WEB],
    ];
    for (const [ref, name, value, context] of cases) {
      const { completion } = await complete(h.client, ref, name, value, context);
      assert.deepEqual(
        completion,
        nothing,
        `${name}=${value.slice(0, 10)} ${JSON.stringify(context)}`,
      );
    }
    assert.deepEqual(h.fixture.requests, []);
  });

  Deno.test(`completions, ${era}: what is not there completes to nothing; an unknown prompt or template is -32602`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const { completion } = await complete(h.client, REVIEW, "pr_id", "", {
      project: "PROJ",
      repo: "nope",
    });
    assert.deepEqual(completion.values, []);
    for (
      const ref of [
        { type: "ref/prompt" as const, name: "no_such_prompt" },
        { type: "ref/resource" as const, uri: `${T}/branches/{id}` },
      ]
    ) {
      const error = await failure(complete(h.client, ref, "project", ""));
      assert.equal(error.code, -32602, JSON.stringify(ref));
      assert.match(error.message, /^Cannot complete project: no /);
    }
  });
}

Deno.test("completions: a name or path hiding characters is offered as results show it, and typed back so", async () => {
  const branch = "feature/\u202Efix\u200B";
  const shown = "feature/\\u{202E}fix\\u{200B}";
  const dir = "docs\u200B";
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/branches`,
        body: { isLastPage: true, values: [{ id: `refs/heads/${branch}`, displayId: branch }] },
      },
      { method: "GET", path: `${REPO}/tags`, body: { isLastPage: true, values: [] } },
      {
        method: "GET",
        path: `${REPO}/files/${encodeURIComponent(dir)}`,
        body: { isLastPage: true, values: ["a\u202E.md"] },
      },
    ],
  });
  const file = { type: "ref/resource" as const, uri: FILE_TEMPLATE };
  const refs = await complete(h.client, file, "at", "feature/\\u{202E}f", IN_WEB);
  assert.deepEqual(refs.completion.values, [shown]);
  // Bitbucket filters by the real bytes of what was typed.
  assert.equal(h.fixture.requests[0]?.query.filterText, "feature/\u202Ef");
  const paths = await complete(h.client, file, "path", "docs\\u{200B}/", IN_WEB);
  assert.deepEqual(paths.completion.values, ["docs\\u{200B}/a\\u{202E}.md"]);
  assert.deepEqual(h.fixture.unmatched, []);
});

Deno.test("completions: at most 100 values, saying how many matched", async () => {
  const many = Array.from({ length: 150 }, (_, i) => ({ key: `K${i}`, name: `Project ${i}` }));
  await using h = await connect({
    routes: [{
      method: "GET",
      path: "/api/latest/projects",
      body: { size: many.length, limit: 1000, isLastPage: true, start: 0, values: many },
    }],
  });
  const { completion } = await complete(h.client, REVIEW, "project", "k");
  assert.equal(completion.values.length, 100);
  assert.deepEqual(completion.values.slice(0, 2), ["K0", "K1"]);
  assert.equal(completion.total, 150);
  assert.equal(completion.hasMore, true);
});

Deno.test("completions: a listing that goes on past what was read may hold more: hasMore, no total", async () => {
  // 100 newest commits, and more behind them.
  const newest = Array.from({ length: 100 }, (_, i) => {
    const id = i.toString(16).padStart(40, "a");
    return { id, displayId: id.slice(0, 11) };
  });
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/commits`,
      body: {
        size: 100,
        limit: 100,
        isLastPage: false,
        nextPageStart: 100,
        start: 0,
        values: newest,
      },
    }],
  });
  const { completion } = await complete(
    h.client,
    { type: "ref/resource", uri: COMMIT_TEMPLATE },
    "id",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    IN_WEB,
  );
  assert.deepEqual(completion, { values: newest.slice(0, 16).map((c) => c.id), hasMore: true });
  assert.deepEqual(seen(h), [`${REPO}/commits {"start":"0","limit":"100"}`]);
});

Deno.test("completions over HTTP: each token's answers are its own; a token's typing asks once", async () => {
  await using h = startHttp({ routes: ROUTES });
  const a = await connectHttp(h.url, "modern", "completions-A-SECRET-7777");
  const b = await connectHttp(h.url, "legacy", "completions-B-SECRET-8888");
  try {
    for (const client of [a, b, a, b]) {
      const { completion } = await complete(client, REVIEW, "project", "PR");
      assert.deepEqual(completion.values, ["PROJ"]);
    }
  } finally {
    await a.close();
    await b.close();
  }
  // Two tokens, two pages each: once per token, never one token's answer for the other.
  const byToken = new Map<string, number>();
  for (const r of h.fixture.requests) {
    byToken.set(r.headers.authorization!, (byToken.get(r.headers.authorization!) ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries(byToken), {
    "Bearer completions-A-SECRET-7777": 2,
    "Bearer completions-B-SECRET-8888": 2,
  });
});
