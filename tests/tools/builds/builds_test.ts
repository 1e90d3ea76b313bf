import assert from "node:assert/strict";
import { builds, BUILT } from "../../../testing/cases/builds.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const SET_ARGS = builds.toolArguments.set_build_status!.args;

Deno.test("get_build_status lists every build of the commit with its state, link, ref and test counts", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "get_build_status",
    arguments: { commit_id: BUILT },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const out = result.structuredContent as {
    buildStatuses: Record<string, unknown>[];
    isLastPage: boolean;
  };
  assert.deepEqual(out.buildStatuses.map((b) => [b.key, b.state]), [
    ["web-ci", "SUCCESSFUL"],
    ["web-e2e", "FAILED"],
    ["web-lint", "INPROGRESS"],
  ]);
  const failed = out.buildStatuses[1]!;
  assert.equal(failed.name, "End-to-end tests");
  assert.equal(failed.url, "https://ci.example.com/job/web-e2e/977/");
  assert.equal(failed.description, "2 of 48 browser tests failed");
  assert.equal(failed.ref, "refs/heads/main");
  assert.equal(failed.buildNumber, "977");
  assert.deepEqual(failed.testResults, { successful: 46, failed: 2, skipped: 0 });
  assert.equal(failed.updatedDate, "2024-11-28T13:43:31Z");
  assert.ok(!("projectKey" in failed), "fields a model does not use are dropped");
  assert.equal(out.isLastPage, true);
});

Deno.test("get_build_summary counts the commit's builds by state", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "get_build_summary",
    arguments: { commit_id: BUILT },
  });
  assert.deepEqual(result.structuredContent, {
    buildSummary: { successful: 1, failed: 1, inProgress: 1, cancelled: 0, unknown: 0 },
  });
});

Deno.test("get_build_summary reads a state Bitbucket leaves out as zero", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `/build-status/latest/commits/stats/${BUILT}`,
      body: { successful: 3, failed: 0, inProgress: 0 },
    }, ...builds.routes],
  });
  const result = await h.client.callTool({
    name: "get_build_summary",
    arguments: { commit_id: BUILT },
  });
  assert.deepEqual(result.structuredContent, {
    buildSummary: { successful: 3, failed: 0, inProgress: 0, cancelled: 0, unknown: 0 },
  });
});

Deno.test("list_required_builds gives each check's build keys, target branches and exemptions", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "list_required_builds",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.deepEqual(result.structuredContent, {
    requiredBuilds: [
      {
        id: 3,
        buildParentKeys: ["web-ci", "web-e2e"],
        refMatcher: { type: "BRANCH", id: "refs/heads/main", displayId: "main" },
      },
      {
        id: 4,
        buildParentKeys: ["web-lint"],
        refMatcher: { type: "ANY_REF", id: "ANY_REF_MATCHER_ID", displayId: "ANY_REF_MATCHER_ID" },
        exemptRefMatcher: { type: "PATTERN", id: "hotfix/*", displayId: "hotfix/*" },
      },
    ],
    isLastPage: true,
  });
});

/** Every tool with a commit_id, with otherwise valid arguments. */
const commitTools: [string, Record<string, unknown>][] = [
  ["get_build_status", {}],
  ["get_build_summary", {}],
  ["list_code_insights_reports", { project: "PROJ", repo: "web" }],
  ["list_code_insights_annotations", { project: "PROJ", repo: "web" }],
  ["set_build_status", { ...SET_ARGS }],
];
const badCommitIds = ["main", "HEAD~1", "8d5", "g".repeat(40), `${BUILT.slice(0, 8)}/../../admin`];
for (const [tool, args] of commitTools) {
  Deno.test(`${tool} refuses a commit_id that is not hexadecimal, before any request`, async () => {
    await using h = await connect({ routes: builds.routes, selection: { yolo: true } });
    for (const commit_id of badCommitIds) {
      const result = await h.client.callTool({ name: tool, arguments: { ...args, commit_id } });
      assert.equal(result.isError, true, `${commit_id} refused`);
      assert.match(firstText(result), /commit_id/);
    }
    assert.equal(h.fixture.requests.length, 0);
  });
}

for (const tool of ["get_build_status", "get_build_summary"]) {
  Deno.test(`${tool} refuses an abbreviated commit id, which would find no builds, and says how to get the full one`, async () => {
    await using h = await connect({ routes: builds.routes });
    const result = await h.client.callTool({ name: tool, arguments: { commit_id: "8d51122def5" } });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /commit_id: must be a full commit id/);
    assert.match(firstText(result), /get_commit/);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("get_build_status asks for an upper-case commit id in lower case", async () => {
  await using h = await connect({ routes: builds.routes });
  const result = await h.client.callTool({
    name: "get_build_status",
    arguments: { commit_id: BUILT.toUpperCase() },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.equal(h.fixture.requests[0]?.path, `/build-status/latest/commits/${BUILT}`);
});

const abbreviated = [
  {
    tool: "list_code_insights_reports",
    args: { project: "PROJ", repo: "web", commit_id: "8d51122def5" },
    then: {
      method: "GET",
      path: `/insights/latest/projects/PROJ/repos/web/commits/${BUILT}/reports`,
    },
  },
  {
    tool: "set_build_status",
    args: { ...SET_ARGS, commit_id: "8d51122def5" },
    then: { method: "POST", path: `${REPO}/commits/${BUILT}/builds` },
  },
];
for (const c of abbreviated) {
  Deno.test(`${c.tool} resolves an abbreviated commit id to the full one first`, async () => {
    await using h = await connect({ routes: builds.routes, selection: { yolo: true } });
    const result = await h.client.callTool({ name: c.tool, arguments: c.args });
    assert.notEqual(result.isError, true, firstText(result));
    assert.deepEqual(h.fixture.requests.map((r) => ({ method: r.method, path: r.path })), [
      { method: "GET", path: `${REPO}/commits/8d51122def5` },
      c.then,
    ]);
  });
}

for (const state of ["successful", "Failed", "inProgress", "cancelled", "UNKNOWN"]) {
  Deno.test(`set_build_status sends state ${state} to Bitbucket upper case`, async () => {
    await using h = await connect({ routes: builds.routes, selection: { yolo: true } });
    const result = await h.client.callTool({
      name: "set_build_status",
      arguments: { ...SET_ARGS, state },
    });
    assert.notEqual(result.isError, true, firstText(result));
    const sent = h.fixture.requests[0]?.body as { state: string };
    assert.equal(sent.state, state.toUpperCase());
    const out = result.structuredContent as { buildStatus: { state: string } };
    assert.equal(out.buildStatus.state, state.toUpperCase());
  });
}

for (const state of ["passed", "in progress", "SUCCESS", "ok"]) {
  Deno.test(`set_build_status refuses state ${JSON.stringify(state)}, listing the permitted ones`, async () => {
    await using h = await connect({ routes: builds.routes, selection: { yolo: true } });
    const result = await h.client.callTool({
      name: "set_build_status",
      arguments: { ...SET_ARGS, state },
    });
    assert.equal(result.isError, true);
    assert.match(
      firstText(result),
      /state: must be one of SUCCESSFUL, FAILED, INPROGRESS, CANCELLED, UNKNOWN/,
    );
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("set_build_status reports the status it stored when Bitbucket answers 204 with no body", async () => {
  await using h = await connect({ routes: builds.routes, selection: { yolo: true } });
  const result = await h.client.callTool({
    name: "set_build_status",
    arguments: {
      project: "PROJ",
      repo: "web",
      commit_id: BUILT,
      key: "web-e2e",
      state: "failed",
      url: "https://ci.example.com/job/web-e2e/978/",
    },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    buildStatus: {
      commitId: BUILT,
      key: "web-e2e",
      state: "FAILED",
      url: "https://ci.example.com/job/web-e2e/978/",
    },
  });
  assert.deepEqual(h.fixture.requests[0]?.body, {
    key: "web-e2e",
    state: "FAILED",
    url: "https://ci.example.com/job/web-e2e/978/",
  });
  assert.equal(h.fixture.requests[0]?.headers["x-atlassian-token"], "no-check");
});

Deno.test("set_build_status asks the person first; --withhold-unsafe withholds it and keeps the read-only build tools", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: builds.routes,
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "cancel" };
    },
  });
  const result = await h.client.callTool({ name: "set_build_status", arguments: SET_ARGS });
  assert.equal(result.isError, true);
  assert.equal(asked.length, 1);
  assert.equal(
    asked[0],
    `Report build "web-ci" "Unit tests" (linking "https://ci.example.com/job/web-ci/1842/") as SUCCESSFUL on commit ${
      BUILT.slice(0, 12)
    } in PROJ/web, where it has none yet; merge checks and reviewers rely on it`,
  );
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
  await using withheld = await connect({
    routes: builds.routes,
    selection: { withholdUnsafe: true },
  });
  const names = (await withheld.client.listTools()).tools.map((t) => t.name);
  assert.ok(!names.includes("set_build_status"));
  for (const name of ["get_build_status", "get_build_summary", "list_required_builds"]) {
    assert.ok(names.includes(name), name);
  }
  await assert.rejects(
    withheld.client.callTool({ name: "set_build_status", arguments: SET_ARGS }),
    /set_build_status not found/,
  );
  assert.equal(withheld.fixture.requests.length, 0);
});

Deno.test("set_build_status refuses a key or URL longer than Bitbucket stores, before any request", async () => {
  await using h = await connect({ routes: builds.routes, selection: { yolo: true } });
  for (
    const [name, value] of [["key", "k".repeat(256)], ["url", `https://ci/${"x".repeat(450)}`]]
  ) {
    const result = await h.client.callTool({
      name: "set_build_status",
      arguments: { ...SET_ARGS, [name!]: value },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), new RegExp(`${name}:`));
  }
  assert.equal(h.fixture.requests.length, 0);
});
