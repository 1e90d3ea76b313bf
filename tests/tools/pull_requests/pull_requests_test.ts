/**
 * The pull request reading tools of src/tools/pull_requests/pull_requests.ts: listing, one
 * pull request, its changes, commits, merge status and timeline; and the ids
 * every pull request tool takes. The diff's bounds are in
 * tests/bitbucket/diff/read_test.ts, comments and tasks in comments_test.ts,
 * the writes in lifecycle_test.ts.
 */
import assert from "node:assert/strict";
import { AS_CALLER, CALLER, PR, pullRequests, REPO } from "../../../testing/cases/pull_requests.ts";
import { readFixture, type Route } from "../../../testing/fixture_bitbucket.ts";
import { connect } from "../../../testing/harness.ts";
import {
  ActivitiesPayload,
  ARGS,
  call,
  ChangesPayload,
  CommitsPayload,
  MergeStatusPayload,
  payload,
  PullRequestPayload,
  PullRequestsPayload,
  seen,
} from "../../support/pr_calls.ts";

// --- reading ---------------------------------------------------------------

Deno.test("get_pull_request shows reviewers with their status, the refs with latest commits, and the link", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "get_pull_request", PullRequestPayload, ARGS);
  const pr = out.pullRequest;
  assert.equal(pr.version, 3);
  assert.equal(pr.state, "OPEN");
  assert.equal(pr.draft, false);
  assert.deepEqual(pr.author, { name: "jdoe", displayName: "Jane Doe" });
  assert.deepEqual(pr.reviewers.map((r) => [r.name, r.status]), [
    ["asmith", "APPROVED"],
    ["bwilson", "NEEDS_WORK"],
  ]);
  assert.deepEqual(pr.fromRef, {
    id: "refs/heads/feature/login",
    displayId: "feature/login",
    latestCommit: "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f",
    repository: "PROJ/web",
  });
  assert.equal(pr.toRef.latestCommit, "8d51122def5632836d1cb1026e879069e10a1e13");
  assert.match(pr.description ?? "", /rejects an empty password/);
  assert.equal(pr.link, "https://bitbucket.example.com/projects/PROJ/repos/web/pull-requests/42");
  assert.equal(pr.createdDate, "2024-11-27T09:33:20Z");
  assert.ok(!JSON.stringify(out).includes("emailAddress"), "results stay lean");
});

Deno.test("get_pull_request of an unknown id carries Bitbucket's message", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const { isError, text } = await call(h, "get_pull_request", { ...ARGS, pr_id: 999 });
  assert.ok(isError);
  assert.match(text, /404 Not Found: Pull request 999 does not exist/);
});

const listings: {
  why: string;
  args: Record<string, unknown>;
  routes?: Route[];
  requests: { path: string; query: Record<string, string> }[];
  titles: string[];
}[] = [
  {
    why: "one repository, OPEN by default",
    args: { project: "PROJ", repo: "web" },
    requests: [{
      path: `${REPO}/pull-requests`,
      query: { state: "OPEN", start: "0", limit: "25" },
    }],
    titles: ["Search the catalogue by tag", "Validate the login form before submitting"],
  },
  {
    why: "state in any case is normalised",
    args: { project: "PROJ", repo: "web", state: "Merged" },
    requests: [{
      path: `${REPO}/pull-requests`,
      query: { state: "MERGED", start: "0", limit: "25" },
    }],
    titles: ["Search the catalogue by tag", "Validate the login form before submitting"],
  },
  {
    why: "a role in a repository filters on the caller, named by X-AUSERNAME",
    args: { project: "PROJ", repo: "web", role: "author" },
    routes: [{
      method: "GET",
      path: REPO,
      fixture: "repositories/repo-web.json",
      headers: AS_CALLER,
    }],
    requests: [
      { path: REPO, query: {} },
      {
        path: `${REPO}/pull-requests`,
        query: { state: "OPEN", "username.1": CALLER, "role.1": "AUTHOR", start: "0", limit: "25" },
      },
    ],
    titles: ["Search the catalogue by tag", "Validate the login form before submitting"],
  },
  {
    why: "a source branch is Bitbucket's `at` with OUTGOING",
    args: { project: "PROJ", repo: "web", source_branch: "feature/login" },
    requests: [{
      path: `${REPO}/pull-requests`,
      query: {
        state: "OPEN",
        at: "refs/heads/feature/login",
        direction: "OUTGOING",
        start: "0",
        limit: "25",
      },
    }],
    titles: ["Search the catalogue by tag", "Validate the login form before submitting"],
  },
  {
    why: "with both branches, the target is checked on what Bitbucket returns",
    args: {
      project: "PROJ",
      repo: "web",
      source_branch: "refs/heads/feature/login",
      target_branch: "release/2.0",
    },
    requests: [{
      path: `${REPO}/pull-requests`,
      query: {
        state: "OPEN",
        at: "refs/heads/feature/login",
        direction: "OUTGOING",
        start: "0",
        limit: "25",
      },
    }],
    titles: [],
  },
  {
    why: "with neither project nor repo, the caller's own from the dashboard",
    args: { role: "Reviewer" },
    requests: [{
      path: "/api/latest/dashboard/pull-requests",
      query: { state: "OPEN", role: "REVIEWER", start: "0", limit: "25" },
    }],
    titles: ["Validate the login form before submitting", "Rate-limit the login endpoint"],
  },
  {
    why: "the dashboard in every state sends no state",
    args: { state: "all", limit: 2 },
    requests: [{ path: "/api/latest/dashboard/pull-requests", query: { start: "0", limit: "2" } }],
    titles: ["Validate the login form before submitting", "Rate-limit the login endpoint"],
  },
];
for (const c of listings) {
  Deno.test(`list_pull_requests: ${c.why}`, async () => {
    await using h = await connect({ routes: [...c.routes ?? [], ...pullRequests.routes] });
    const out = await payload(h, "list_pull_requests", PullRequestsPayload, c.args);
    assert.deepEqual(
      seen(h).map(({ path, query }) => ({ path, query })),
      c.requests,
    );
    assert.deepEqual(out.pullRequests.map((p) => p.title), c.titles);
    for (const pr of out.pullRequests) assert.ok(!("description" in pr), "listings leave it out");
  });
}

Deno.test("list_pull_requests across Bitbucket says which repository each pull request is in", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pull_requests", PullRequestsPayload, {});
  assert.deepEqual(
    out.pullRequests.map((p) => [p.id, p.toRef.repository]),
    [[42, "PROJ/web"], [7, "PROJ/api"]],
  );
});

const refusedListings: { why: string; args: Record<string, unknown>; message: RegExp }[] = [
  { why: "project without repo", args: { project: "PROJ" }, message: /both project and repo/ },
  { why: "repo without project", args: { repo: "web" }, message: /both project and repo/ },
  {
    why: "a branch without a repository",
    args: { target_branch: "main" },
    message: /need project and repo/,
  },
  {
    why: "an unknown state",
    args: { project: "PROJ", repo: "web", state: "closed" },
    message: /state: must be one of OPEN, MERGED, DECLINED, ALL \(any case\), not "closed"/,
  },
  {
    why: "an unknown role",
    args: { role: "owner" },
    message: /role: must be one of AUTHOR, REVIEWER, PARTICIPANT/,
  },
];
for (const c of refusedListings) {
  Deno.test(`list_pull_requests refuses ${c.why} before any request`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const { isError, text } = await call(h, "list_pull_requests", c.args);
    assert.ok(isError);
    assert.match(text, c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("list_pull_requests with a role refuses to guess when Bitbucket names no user", async () => {
  await using h = await connect({
    // The repository answers without X-AUSERNAME: nothing names the caller.
    routes: [
      { method: "GET", path: REPO, fixture: "repositories/repo-web.json" },
      ...pullRequests.routes,
    ],
  });
  const { isError, text } = await call(h, "list_pull_requests", {
    project: "PROJ",
    repo: "web",
    role: "author",
  });
  assert.ok(isError);
  assert.match(text, /Cannot tell which user the token belongs to/);
  assert.deepEqual(seen(h).map((r) => r.path), [REPO], "no listing was asked for");
});

// --- ids, for every pull request tool -------------------------------------

const badIds: { tool: string; args: Record<string, unknown>; arg: string }[] = [
  { tool: "get_pull_request", args: { ...ARGS, pr_id: "42" }, arg: "pr_id" },
  { tool: "merge_pull_request", args: { ...ARGS, pr_id: "42" }, arg: "pr_id" },
  {
    tool: "update_pr_comment",
    args: { ...ARGS, comment_id: "311", text: "Hm." },
    arg: "comment_id",
  },
  { tool: "add_pr_comment", args: { ...ARGS, text: "Yes.", parent_id: "298" }, arg: "parent_id" },
];
for (const c of badIds) {
  Deno.test(`${c.tool} refuses ${c.arg} given as a string of digits, before any request`, async () => {
    await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
    const { isError, text } = await call(h, c.tool, c.args);
    assert.ok(isError);
    assert.match(text, new RegExp(`${c.arg}: must be a positive integer given as a JSON number`));
    assert.match(text, /not the string/);
    assert.equal(h.fixture.requests.length, 0);
  });
}

for (const pr_id of [0, -3, 4.5]) {
  Deno.test(`get_pull_request refuses pr_id ${pr_id} before any request`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const { isError, text } = await call(h, "get_pull_request", { ...ARGS, pr_id });
    assert.ok(isError);
    assert.match(text, /pr_id/);
    assert.equal(h.fixture.requests.length, 0);
  });
}

// --- changes, commits, merge status ----------------------------------------

Deno.test("list_pr_changes gives path, change type and the source of a move", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_changes", ChangesPayload, ARGS);
  assert.deepEqual(out.changes, [
    { path: "docs/login.md", type: "MOVE", srcPath: "docs/auth.md", nodeType: "FILE" },
    { path: "src/login/form.ts", type: "MODIFY", nodeType: "FILE" },
    { path: "src/login/validate.ts", type: "ADD", nodeType: "FILE" },
  ]);
  assert.equal(out.isLastPage, true);
});

Deno.test("list_pr_changes from a start on a server that ignores start (not paged) skips what came before", async () => {
  // The 9.4 spec: a pull request's changes are "currently not paged", `start` ignored.
  const all = JSON.parse(readFixture("pull_requests/changes.json"));
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${PR}/changes`,
      respond: (seen) => ({ ...all, values: all.values.slice(0, Number(seen.query.limit)) }),
    }, ...pullRequests.routes],
  });
  const from = all.values.length - 1;
  const out = await payload(h, "list_pr_changes", ChangesPayload, { ...ARGS, start: from });
  assert.deepEqual(out.changes.map((c) => c.path), [all.values[from].path.components.join("/")]);
  assert.equal(out.isLastPage, true);
});

Deno.test("list_pr_commits lists the pull request's commits", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_commits", CommitsPayload, ARGS);
  assert.deepEqual(out.commits.map((c) => c.message), [
    "Validate the login form before submitting",
    "Move the auth docs to docs/login.md",
  ]);
});

Deno.test("get_pr_merge_status gives canMerge, each veto, and the strategies the repository allows", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "get_pr_merge_status", MergeStatusPayload, ARGS);
  assert.deepEqual(seen(h).map((r) => r.path), [`${PR}/merge`, `${REPO}/settings/pull-requests`]);
  assert.deepEqual(out.mergeStatus, {
    canMerge: false,
    conflicted: false,
    outcome: "CLEAN",
    vetoes: [
      {
        summaryMessage: "Requires all tasks to be resolved",
        detailedMessage: "You cannot merge this pull request while it has 1 unresolved task.",
      },
      {
        summaryMessage: "Reviewer requested changes",
        detailedMessage: "Ben Wilson has marked this pull request as needing work.",
      },
    ],
    strategies: ["no-ff", "squash"],
    defaultStrategy: "no-ff",
  });
});

Deno.test("get_pr_merge_status of a pull request Bitbucket will not check (409) says it cannot merge, and why", async () => {
  await using h = await connect({
    routes: [
      { method: "GET", path: `${PR}/merge`, status: 409, fixture: "errors/pr-not-open.json" },
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "get_pr_merge_status", MergeStatusPayload, ARGS);
  const reason = JSON.parse(readFixture("errors/pr-not-open.json")).errors[0].message;
  assert.equal(out.mergeStatus.canMerge, false);
  assert.deepEqual(out.mergeStatus.vetoes, [{ summaryMessage: reason }]);
  assert.deepEqual(out.mergeStatus.strategies, ["no-ff", "squash"]);
});

Deno.test("get_pr_merge_status takes every listed strategy when a server does not say which are enabled", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/settings/pull-requests`,
      body: { mergeConfig: { strategies: [{ id: "no-ff" }, { id: "ff-only" }] } },
    }, ...pullRequests.routes],
  });
  const out = await payload(h, "get_pr_merge_status", MergeStatusPayload, ARGS);
  assert.deepEqual(out.mergeStatus.strategies, ["no-ff", "ff-only"]);
  assert.equal(out.mergeStatus.defaultStrategy, undefined);
});

// --- the timeline ------------------------------------------------------------

Deno.test("list_pr_activity gives the timeline newest first, one compact entry per event", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_activity", ActivitiesPayload, ARGS);
  assert.deepEqual(out.activities.map((a) => a.action), [
    "REVIEW_FINISHED",
    "REVIEW_COMMENTED",
    "RESCOPED",
    "COMMENTED",
    "COMMENTED",
    "COMMENTED",
    "REVIEWED",
    "COMMENTED",
    "COMMENTED",
    "APPROVED",
    "COMMENTED",
    "COMMENTED",
    "COMMENTED",
    "OPENED",
  ]);
  const byId = new Map(out.activities.map((a) => [a.id, a]));
  assert.deepEqual(byId.get(1212), {
    id: 1212,
    action: "RESCOPED",
    createdDate: "2024-11-28T07:48:20Z",
    user: "jdoe",
    commitsAdded: ["a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f"],
    commitsRemoved: [],
  });
  assert.deepEqual(byId.get(1211), {
    id: 1211,
    action: "COMMENTED",
    createdDate: "2024-11-28T07:46:40Z",
    user: "asmith",
    commentId: 295,
    commentAction: "DELETED",
    text: "Typo in the heading.",
  });
  assert.deepEqual(byId.get(1201), {
    id: 1201,
    action: "OPENED",
    createdDate: "2024-11-27T09:33:20Z",
    user: "jdoe",
  });
  assert.ok(!JSON.stringify(out).includes("emailAddress"), "entries stay compact");
});

Deno.test("list_pr_activity quotes a long comment only in part", async () => {
  const long = "x".repeat(400);
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${PR}/activities`,
      body: {
        isLastPage: true,
        values: [{
          id: 1,
          createdDate: 1,
          action: "COMMENTED",
          commentAction: "ADDED",
          comment: { id: 9, version: 0, text: long, author: { name: "jdoe" }, createdDate: 1 },
        }, {
          id: 2,
          createdDate: 2,
          action: "MERGED",
          commit: { id: "839fa9a2d434eb697815b8fcafaecc51accfdbbc", displayId: "839fa9a2d43" },
        }, {
          id: 3,
          createdDate: 3,
          action: "UPDATED",
          addedReviewers: [{ name: "asmith" }],
          removedReviewers: [],
        }],
      },
    }],
  });
  const out = await payload(h, "list_pr_activity", ActivitiesPayload, ARGS);
  const [comment, merged, updated] = out.activities;
  assert.equal(comment?.text, `${"x".repeat(159)}…`);
  assert.equal(merged?.commit, "839fa9a2d434eb697815b8fcafaecc51accfdbbc");
  assert.deepEqual(updated?.reviewersAdded, ["asmith"]);
  assert.equal(updated?.reviewersRemoved, undefined, "an empty list is left out");
});
