/**
 * Code Insights in src/tools/builds/insights.ts: the reports on a commit and
 * their annotations as read (filtered and paged here), and the writes: a
 * report with its data, its annotations and its deletion, at the commit's
 * full id, and the refusal of a report another user or app created.
 */
import assert from "node:assert/strict";
import {
  builds,
  BUILT,
  FIRST_ANNOTATION,
  LINT_REPORT,
  PR_42_HEAD,
} from "../../../testing/cases/builds.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const CREATE = builds.toolArguments.create_code_insights_report!;
const ANNOTATE = builds.toolArguments.add_code_insights_annotations!;
const REPORT_ARGS = {
  project: "PROJ",
  repo: "web",
  commit_id: BUILT,
  report_key: "com.example.lint",
};
/** What Bitbucket answers a write to a report someone else created (the 9.4 spec's 401). */
const NOT_THE_AUTHOR = { status: 401, fixture: "errors/forbidden.json" };

Deno.test("create_code_insights_report puts the report at the commit's full id, typing each datum by its value", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "create_code_insights_report",
    arguments: {
      ...CREATE.args,
      data: { Errors: 1, "Safe to merge?": false, Rule: "no-unused-vars" },
    },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const put = h.fixture.requests.find((r) => r.method === "PUT");
  assert.equal(put?.path, LINT_REPORT, "the abbreviated id is expanded first");
  assert.deepEqual((put?.body as { data: unknown }).data, [
    { title: "Errors", type: "NUMBER", value: 1 },
    { title: "Safe to merge?", type: "BOOLEAN", value: false },
    { title: "Rule", type: "TEXT", value: "no-unused-vars" },
  ]);
  assert.equal((put?.body as { result: string }).result, "FAIL");
  const { report } = result.structuredContent as { report: Record<string, unknown> };
  assert.equal(report.key, "com.example.lint");
  assert.equal(report.result, "FAIL");
  assert.equal(report.createdDate, "2024-11-28T13:40:00Z");
});

Deno.test("create_code_insights_report sends an empty data list when none is given, as Bitbucket requires one", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "create_code_insights_report",
    arguments: { ...REPORT_ARGS, title: "ESLint" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(h.fixture.requests[0]?.body, { title: "ESLint", data: [] });
});

Deno.test("create_code_insights_report refuses more than 6 data and an unknown verdict before any request", async () => {
  await using h = await connect({ routes: builds.routes });
  const data = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`d${n}`, n]));
  for (
    const [args, expected] of [
      [{ data }, /data: at most 6 entries/],
      [{ result: "passed" }, /result: must be one of PASS, FAIL/],
    ] as const
  ) {
    const result = await h.client.callTool({
      name: "create_code_insights_report",
      arguments: { ...REPORT_ARGS, title: "ESLint", ...args },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), expected);
  }
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("a report another user or app created is refused with what to do, for each insights write", async () => {
  const cases = [
    { tool: "create_code_insights_report", args: { ...REPORT_ARGS, title: "x" }, method: "PUT" },
    { tool: "add_code_insights_annotations", args: ANNOTATE.args, method: "POST" },
    { tool: "delete_code_insights_report", args: REPORT_ARGS, method: "DELETE" },
  ] as const;
  for (const c of cases) {
    const path = c.method === "POST" ? `${LINT_REPORT}/annotations` : LINT_REPORT;
    await using h = await connect({
      routes: [{ method: c.method, path, ...NOT_THE_AUTHOR }, ...builds.routes],
    });
    const result = await h.client.callTool({ name: c.tool, arguments: c.args });
    assert.equal(result.isError, true, c.tool);
    const text = firstText(result);
    assert.match(
      text,
      /^Cannot (create|add annotations to|delete) Code Insights report "com\.example\.lint": /,
    );
    assert.match(text, /401 Unauthorized: You are not permitted to access this resource/);
    assert.match(
      text,
      /\(hint: only the user that created report "com\.example\.lint" may change it .*use a key of your own/,
      c.tool,
    );
  }
});

Deno.test("a refused token on an insights write keeps the token's hint, not the report owner's", async () => {
  await using h = await connect({
    routes: [
      { method: "PUT", path: LINT_REPORT, status: 401, fixture: "errors/unauthorized.json" },
      ...builds.routes,
    ],
  });
  const result = await h.client.callTool({
    name: "create_code_insights_report",
    arguments: { ...REPORT_ARGS, title: "ESLint" },
  });
  assert.equal(result.isError, true);
  assert.doesNotMatch(firstText(result), /only the user that created/);
  assert.match(firstText(result), /IncorrectPassword|Authentication failed.*\(hint: .*token/);
});

Deno.test("add_code_insights_annotations posts the batch with Bitbucket's names and upper-case choices", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "add_code_insights_annotations",
    arguments: {
      ...REPORT_ARGS,
      commit_id: "8d51122def5",
      annotations: [
        { path: "src/login/validate.ts", line: 3, message: "Unused variable", severity: "low" },
        {
          message: "Secrets in history",
          severity: "High",
          type: "vulnerability",
          external_id: "s1",
        },
      ],
    },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    annotationsAdded: { reportKey: "com.example.lint", commitId: BUILT, count: 2 },
  });
  const post = h.fixture.requests.find((r) => r.method === "POST");
  assert.equal(post?.path, `${LINT_REPORT}/annotations`);
  assert.deepEqual(post?.body, {
    annotations: [
      { path: "src/login/validate.ts", line: 3, message: "Unused variable", severity: "LOW" },
      { message: "Secrets in history", severity: "HIGH", type: "VULNERABILITY", externalId: "s1" },
    ],
  });
});

Deno.test("add_code_insights_annotations refuses an unknown severity or an empty batch before any request", async () => {
  await using h = await connect({ routes: builds.routes });
  for (
    const [annotations, expected] of [
      [[{ message: "m", severity: "critical" }], /severity: must be one of LOW, MEDIUM, HIGH/],
      [[], /annotations/],
    ] as const
  ) {
    const result = await h.client.callTool({
      name: "add_code_insights_annotations",
      arguments: { ...REPORT_ARGS, annotations },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), expected);
  }
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("add_code_insights_annotations on a report that does not exist says to create it first", async () => {
  await using h = await connect({
    routes: [
      {
        method: "POST",
        path: `${LINT_REPORT}/annotations`,
        status: 404,
        body: { errors: [{ context: null, message: "No report com.example.lint exists." }] },
      },
      ...builds.routes,
    ],
  });
  const result = await h.client.callTool({
    name: "add_code_insights_annotations",
    arguments: ANNOTATE.args,
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /\(hint: .*the report must exist first \(create_code_insights_report\)\)/,
  );
});

Deno.test("delete_code_insights_report deletes the report at the commit's full id", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "delete_code_insights_report",
    arguments: { ...REPORT_ARGS, commit_id: "8d51122def5" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    deleted: { reportKey: "com.example.lint", commitId: BUILT },
  });
  assert.deepEqual(h.fixture.requests.map((r) => [r.method, r.path]).at(-1), [
    "DELETE",
    LINT_REPORT,
  ]);
});

Deno.test("the insights writes are safe writes: they run without asking, and --read-only withholds them", async () => {
  await using h = await connect({ routes: builds.routes, selection: { withholdUnsafe: true } });
  const names = (await h.client.listTools()).tools.map((t) => t.name);
  for (
    const name of [
      "create_code_insights_report",
      "add_code_insights_annotations",
      "delete_code_insights_report",
    ]
  ) {
    assert.ok(names.includes(name), name);
  }
  const result = await h.client.callTool({
    name: "delete_code_insights_report",
    arguments: REPORT_ARGS,
  });
  assert.notEqual(result.isError, true, firstText(result));
  await using readOnly = await connect({ routes: builds.routes, selection: { readOnly: true } });
  const readable = (await readOnly.client.listTools()).tools.map((t) => t.name);
  assert.ok(!readable.includes("create_code_insights_report"));
  assert.ok(readable.includes("list_code_insights_reports"));
});

// --- reading reports and annotations ----------------------------------------

const REPO = "/api/latest/projects/PROJ/repos/web";

Deno.test("list_code_insights_reports gives each report's verdict, reporter, link and data", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "list_code_insights_reports",
    arguments: { project: "PROJ", repo: "web", commit_id: BUILT },
  });
  const { reports } = result.structuredContent as { reports: Record<string, unknown>[] };
  assert.deepEqual(reports.map((r) => [r.key, r.title, r.result]), [
    ["com.example.sonar", "SonarQube", "FAIL"],
    ["com.example.depcheck", "Dependency audit", undefined],
  ]);
  const sonar = reports[0]!;
  assert.equal(sonar.reporter, "SonarQube 10.4");
  assert.equal(sonar.link, "https://sonar.example.com/dashboard?id=web&branch=main");
  assert.match(String(sonar.details), /quality gate failed/);
  assert.deepEqual(sonar.data, [
    { title: "Bugs", type: "NUMBER", value: 2 },
    { title: "Coverage on new code", type: "PERCENTAGE", value: 71.3 },
    { title: "Safe to merge?", type: "BOOLEAN", value: false },
    {
      title: "Quality gate",
      type: "LINK",
      value: { linktext: "Failed", href: "https://sonar.example.com/dashboard?id=web&branch=main" },
    },
  ]);
  assert.ok(!("logoUrl" in sonar), "the logo is dropped");
});

const ANNOTATIONS = `/insights/latest/projects/PROJ/repos/web/commits/${PR_42_HEAD}/annotations`;
const ON_HEAD = { project: "PROJ", repo: "web", commit_id: PR_42_HEAD };

/** Calls list_code_insights_annotations and gives what a user sees: the findings, paging, requests. */
async function annotations(args: Record<string, unknown>, routes = builds.routes) {
  await using h = await connect({ routes });
  const result = await h.client.callTool({
    name: "list_code_insights_annotations",
    arguments: args,
  });
  assert.notEqual(result.isError, true, firstText(result));
  const out = result.structuredContent as {
    annotations: Record<string, unknown>[];
    isLastPage: boolean;
    nextPageStart?: number;
  };
  return { out, requests: h.fixture.requests.map((r) => ({ path: r.path, query: r.query })) };
}

Deno.test("list_code_insights_annotations gives each finding's report, place, severity, type, message and link", async () => {
  const { out, requests } = await annotations(ON_HEAD);
  assert.deepEqual(requests, [{ path: ANNOTATIONS, query: {} }]);
  assert.deepEqual(out.annotations[0], FIRST_ANNOTATION);
  assert.deepEqual(out.annotations.map((a) => [a.path, a.line]), [
    ["src/login/validate.ts", 3],
    ["src/login/validate.ts", 7],
    ["src/login/form.ts", 16],
  ]);
  assert.equal(out.isLastPage, true);
});

const annotationFilters: {
  args: Record<string, unknown>;
  query: Record<string, string>;
  lines: number[];
}[] = [
  { args: { report_key: "com.example.eslint" }, query: { key: "com.example.eslint" }, lines: [16] },
  {
    args: { path: "src/login/validate.ts" },
    query: { path: "src/login/validate.ts" },
    lines: [3, 7],
  },
  { args: { severity: "low" }, query: { severity: "LOW" }, lines: [7] },
];
for (const c of annotationFilters) {
  Deno.test(`list_code_insights_annotations sends ${JSON.stringify(c.args)} and filters again on what comes back`, async () => {
    // The fixture answers every finding, as a server ignoring the filter would.
    const { out, requests } = await annotations({ ...ON_HEAD, ...c.args });
    assert.deepEqual(requests, [{ path: ANNOTATIONS, query: c.query }]);
    assert.deepEqual(out.annotations.map((a) => a.line), c.lines);
  });
}

Deno.test("list_code_insights_annotations pages the findings itself: Bitbucket sends them in one list", async () => {
  const first = await annotations({ ...ON_HEAD, limit: 2 });
  assert.deepEqual(first.out.annotations.map((a) => a.line), [3, 7]);
  assert.equal(first.out.isLastPage, false);
  assert.equal(first.out.nextPageStart, 2);
  const rest = await annotations({ ...ON_HEAD, limit: 2, start: 2 });
  assert.deepEqual(rest.out.annotations.map((a) => a.line), [16]);
  assert.equal(rest.out.isLastPage, true);
});

Deno.test("list_code_insights_annotations looks up an abbreviated id's full id first", async () => {
  const { requests } = await annotations({ ...ON_HEAD, commit_id: "a3c7e0f" }, [
    {
      method: "GET",
      path: `${REPO}/commits/a3c7e0f`,
      body: { id: PR_42_HEAD, displayId: "a3c7e0f" },
    },
    ...builds.routes,
  ]);
  assert.deepEqual(requests.map((r) => r.path), [`${REPO}/commits/a3c7e0f`, ANNOTATIONS]);
});
