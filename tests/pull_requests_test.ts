import assert from "node:assert/strict";
import { AS_CALLER, CALLER, PR, REPO } from "./cases/pull_requests.ts";
import { readFixture, type Route } from "./support/fixture_bitbucket.ts";
import { connect, firstText, type Harness } from "./support/harness.ts";

const ARGS = { project: "PROJ", repo: "web", pr_id: 42 };
const UNSAFE = [
  "submit_pr_review",
  "update_pr_task",
  "merge_pull_request",
  "decline_pull_request",
  "enable_auto_merge",
];
const SAFE_WRITES = [
  "create_pull_request",
  "update_pull_request",
  "add_pr_comment",
  "disable_auto_merge",
];

/** Calls a tool and returns what a user sees: the error flag, the text block and the payload. */
async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    text: firstText(result),
    // deno-lint-ignore no-explicit-any
    out: result.structuredContent as any,
  };
}

/** The requests the fixture Bitbucket saw, as method, path, query and body. */
function seen(h: Harness) {
  return h.fixture.requests.map((r) => ({
    method: r.method,
    path: r.path,
    query: r.query,
    ...(r.body === undefined ? {} : { body: r.body }),
  }));
}

// --- reading ---------------------------------------------------------------

Deno.test("get_pull_request shows reviewers with their status, the refs with latest commits, and the link", async () => {
  await using h = await connect();
  const { out } = await call(h, "get_pull_request", ARGS);
  const pr = out.pullRequest;
  assert.equal(pr.version, 3);
  assert.equal(pr.state, "OPEN");
  assert.equal(pr.draft, false);
  assert.deepEqual(pr.author, { name: "jdoe", displayName: "Jane Doe" });
  assert.deepEqual(pr.reviewers.map((r: { name: string; status: string }) => [r.name, r.status]), [
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
  assert.match(pr.description, /rejects an empty password/);
  assert.equal(pr.link, "https://bitbucket.example.com/projects/PROJ/repos/web/pull-requests/42");
  assert.equal(pr.createdDate, 1732700000000);
  assert.ok(!JSON.stringify(out).includes("emailAddress"), "results stay lean");
});

Deno.test("get_pull_request of an unknown id carries Bitbucket's message", async () => {
  await using h = await connect();
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
    await using h = await connect({ routes: c.routes });
    const { isError, text, out } = await call(h, "list_pull_requests", c.args);
    assert.ok(!isError, text);
    assert.deepEqual(
      seen(h).map(({ path, query }) => ({ path, query })),
      c.requests,
    );
    assert.deepEqual(out.pullRequests.map((p: { title: string }) => p.title), c.titles);
    for (const pr of out.pullRequests) assert.ok(!("description" in pr), "listings leave it out");
  });
}

Deno.test("list_pull_requests across Bitbucket says which repository each pull request is in", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pull_requests", {});
  assert.deepEqual(
    out.pullRequests.map((p: { id: number; toRef: { repository: string } }) => [
      p.id,
      p.toRef.repository,
    ]),
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
    await using h = await connect();
    const { isError, text } = await call(h, "list_pull_requests", c.args);
    assert.ok(isError);
    assert.match(text, c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("list_pull_requests with a role refuses to guess when Bitbucket names no user", async () => {
  await using h = await connect(); // the shared repository fixture sends no X-AUSERNAME
  const { isError, text } = await call(h, "list_pull_requests", {
    project: "PROJ",
    repo: "web",
    role: "author",
  });
  assert.ok(isError);
  assert.match(text, /Cannot tell which user the token belongs to/);
  assert.deepEqual(seen(h).map((r) => r.path), [REPO], "no listing was asked for");
});

const badIds: { tool: string; args: Record<string, unknown>; arg: string }[] = [
  { tool: "get_pull_request", args: { ...ARGS, pr_id: "42" }, arg: "pr_id" },
  { tool: "merge_pull_request", args: { ...ARGS, pr_id: "42" }, arg: "pr_id" },
  { tool: "update_pr_task", args: { ...ARGS, task_id: "301", state: "resolved" }, arg: "task_id" },
  { tool: "add_pr_comment", args: { ...ARGS, text: "Yes.", parent_id: "298" }, arg: "parent_id" },
];
for (const c of badIds) {
  Deno.test(`${c.tool} refuses ${c.arg} given as a string of digits, before any request`, async () => {
    await using h = await connect({ selection: { yolo: true } });
    const { isError, text } = await call(h, c.tool, c.args);
    assert.ok(isError);
    assert.match(text, new RegExp(`${c.arg}: must be a positive integer given as a JSON number`));
    assert.match(text, /not the string/);
    assert.equal(h.fixture.requests.length, 0);
  });
}

for (const pr_id of [0, -3, 4.5]) {
  Deno.test(`get_pull_request refuses pr_id ${pr_id} before any request`, async () => {
    await using h = await connect();
    const { isError, text } = await call(h, "get_pull_request", { ...ARGS, pr_id });
    assert.ok(isError);
    assert.match(text, /pr_id/);
    assert.equal(h.fixture.requests.length, 0);
  });
}

// --- the diff --------------------------------------------------------------

const DIFF = readFixture("pull_requests/pr-42.diff");

Deno.test("get_pr_diff's text block is the unified diff itself", async () => {
  await using h = await connect();
  const result = await h.client.callTool({ name: "get_pr_diff", arguments: ARGS });
  assert.equal(firstText(result), DIFF);
  assert.deepEqual(result.structuredContent, { diff: DIFF, truncated: false });
  assert.deepEqual(seen(h), [{ method: "GET", path: `${PR}.diff`, query: {} }]);
  // Bitbucket serves the raw diff as text/plain only; a JSON-only Accept would be refused.
  assert.match(h.fixture.requests[0]?.headers.accept ?? "", /\*\/\*|text\/plain/);
});

const cuts: { max_bytes: number; omitted: string[] | undefined }[] = [
  // The diff holds docs/login.md (322 bytes), src/login/form.ts (730), src/login/validate.ts (539).
  { max_bytes: 1000, omitted: ["src/login/form.ts", "src/login/validate.ts"] },
  { max_bytes: 1052, omitted: ["src/login/validate.ts"] }, // cut exactly after form.ts
  { max_bytes: 1590, omitted: ["src/login/validate.ts"] }, // its last line does not fit
  { max_bytes: 1591, omitted: undefined }, // fits exactly
];
for (const c of cuts) {
  Deno.test(`get_pr_diff cut at ${c.max_bytes} bytes lists the files left out or cut short`, async () => {
    await using h = await connect();
    const result = await h.client.callTool({
      name: "get_pr_diff",
      arguments: { ...ARGS, max_bytes: c.max_bytes },
    });
    // deno-lint-ignore no-explicit-any
    const out = result.structuredContent as any;
    assert.equal(out.truncated, c.omitted !== undefined);
    assert.deepEqual(out.omittedFiles, c.omitted);
    const bytes = new TextEncoder().encode(out.diff).length;
    assert.ok(bytes <= c.max_bytes, `${bytes} bytes returned`);
    assert.ok(DIFF.startsWith(out.diff), "a prefix of the diff");
    assert.ok(out.diff === "" || out.diff.endsWith("\n"), "cut at a line end");
    if (c.omitted) {
      assert.match(firstText(result), /\[diff cut at max_bytes; left out or cut short: /);
      assert.ok(firstText(result).includes(c.omitted.join(", ")));
      assert.deepEqual(seen(h).map((r) => r.path), [`${PR}.diff`, `${PR}/changes`]);
    } else {
      assert.equal(firstText(result), DIFF);
    }
  });
}

const oneFile: { path: string; starts: string; truncated?: number }[] = [
  {
    path: "src/login/form.ts",
    starts: "diff --git src://src/login/form.ts dst://src/login/form.ts\n",
  },
  { path: "docs/auth.md", starts: "diff --git src://docs/auth.md dst://docs/login.md\n" },
  { path: "docs/login.md", starts: "diff --git src://docs/auth.md dst://docs/login.md\n" },
  {
    path: "src/login/validate.ts",
    starts: "diff --git src://src/login/validate.ts dst://src/login/validate.ts\n",
  },
  {
    path: "src/login/form.ts",
    starts: "diff --git src://src/login/form.ts dst://src/login/form.ts\n",
    truncated: 400,
  },
];
for (const c of oneFile) {
  Deno.test(
    `get_pr_diff with path ${c.path}${
      c.truncated ? ` cut at ${c.truncated}` : ""
    } shows that file only`,
    async () => {
      await using h = await connect();
      const { out } = await call(h, "get_pr_diff", {
        ...ARGS,
        path: c.path,
        ...(c.truncated ? { max_bytes: c.truncated } : {}),
      });
      assert.ok(out.diff.startsWith(c.starts));
      assert.equal(out.diff.match(/^diff --git /gm)?.length, 1, "one file");
      assert.ok(DIFF.includes(out.diff));
      assert.equal(out.truncated, c.truncated !== undefined);
      if (c.truncated) assert.deepEqual(out.omittedFiles, [c.path]);
      else {assert.ok(
          out.diff.endsWith("\n") &&
            DIFF.split(c.starts)[1]?.startsWith(out.diff.slice(c.starts.length)),
        );}
    },
  );
}

Deno.test("get_pr_diff of a file the pull request does not change says so, with a hint", async () => {
  await using h = await connect();
  const { isError, text } = await call(h, "get_pr_diff", { ...ARGS, path: "README.md" });
  assert.ok(isError);
  assert.match(text, /"README\.md".*does not change it.*list_pr_changes/);
});

// --- changes, commits, merge status ----------------------------------------

Deno.test("list_pr_changes gives path, change type and the source of a move", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_changes", ARGS);
  assert.deepEqual(out.changes, [
    { path: "docs/login.md", type: "MOVE", srcPath: "docs/auth.md", nodeType: "FILE" },
    { path: "src/login/form.ts", type: "MODIFY", nodeType: "FILE" },
    { path: "src/login/validate.ts", type: "ADD", nodeType: "FILE" },
  ]);
  assert.equal(out.isLastPage, true);
});

Deno.test("list_pr_commits lists the pull request's commits", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_commits", ARGS);
  assert.deepEqual(out.commits.map((c: { message: string }) => c.message), [
    "Validate the login form before submitting",
    "Move the auth docs to docs/login.md",
  ]);
});

Deno.test("get_pr_merge_status gives canMerge and each veto's summary and detail", async () => {
  await using h = await connect();
  const { out } = await call(h, "get_pr_merge_status", ARGS);
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
  });
});

// --- comments and tasks ----------------------------------------------------

Deno.test("list_pr_comments gathers every thread from the activities, with anchors and replies, and no deleted comment", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_comments", ARGS);
  assert.deepEqual(out.comments.map((c: { id: number }) => c.id), [301, 298, 297, 296]);
  const inline = out.comments[1];
  assert.deepEqual(inline.author, { name: "bwilson", displayName: "Ben Wilson" });
  assert.equal(inline.version, 1);
  assert.equal(inline.state, "OPEN");
  assert.equal(inline.severity, "NORMAL");
  assert.deepEqual(inline.anchor, {
    path: "src/login/form.ts",
    line: 15,
    lineType: "ADDED",
    fileType: "TO",
  });
  assert.deepEqual(
    inline.replies.map((r: { id: number; parentId: number; text: string }) => [
      r.id,
      r.parentId,
      r.text,
    ]),
    [[299, 298, "Good catch, I'll trim it before checking."]],
  );
  assert.equal(out.comments[0].severity, "BLOCKER");
  assert.equal(out.comments[2].anchor, undefined, "a general comment has no anchor");
  assert.equal(out.isLastPage, true);
});

Deno.test("list_pr_comments pages by activity: nextPageStart resumes after the last thread given", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_comments", { ...ARGS, limit: 2 });
  assert.deepEqual(out.comments.map((c: { id: number }) => c.id), [301, 298]);
  assert.equal(out.isLastPage, false);
  assert.equal(out.nextPageStart, 5, "the thread of 298 is the fifth activity");
});

Deno.test("list_pr_comments filters on state in any case", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_comments", { ...ARGS, state: "resolved" });
  assert.deepEqual(out.comments.map((c: { id: number }) => c.id), [296]);
});

Deno.test("list_pr_comments with path asks the comments resource for that file", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_comments", {
    ...ARGS,
    path: "src/login/form.ts",
    state: "open",
  });
  assert.deepEqual(seen(h), [{
    method: "GET",
    path: `${PR}/comments`,
    query: { path: "src/login/form.ts", state: "OPEN", start: "0", limit: "25" },
  }]);
  assert.deepEqual(
    out.comments.map((c: { id: number; replies: unknown[] }) => [
      c.id,
      c.replies.length,
    ]),
    [[298, 1]],
  );
});

const taskListings: { state?: string; query: Record<string, string>; ids: number[] }[] = [
  { query: { state: "OPEN", start: "0", limit: "25" }, ids: [301] },
  { state: "Resolved", query: { state: "RESOLVED", start: "0", limit: "25" }, ids: [296] },
  { state: "all", query: { start: "0", limit: "25" }, ids: [301, 296] },
];
for (const c of taskListings) {
  Deno.test(`list_pr_tasks with state ${c.state ?? "(default)"}`, async () => {
    await using h = await connect();
    const { out } = await call(h, "list_pr_tasks", { ...ARGS, state: c.state });
    assert.deepEqual(seen(h), [{ method: "GET", path: `${PR}/blocker-comments`, query: c.query }]);
    assert.deepEqual(out.tasks.map((t: { id: number }) => t.id), c.ids);
  });
}

Deno.test("list_pr_tasks shows when a resolved task was resolved", async () => {
  await using h = await connect();
  const { out } = await call(h, "list_pr_tasks", { ...ARGS, state: "RESOLVED" });
  assert.deepEqual(out.tasks[0], {
    id: 296,
    version: 2,
    author: { name: "asmith", displayName: "Alex Smith" },
    text: "Rename handleSubmit to submitLogin.",
    createdDate: 1732710000000,
    state: "RESOLVED",
    resolvedDate: 1732740000000,
  });
});

const comments: { why: string; args: Record<string, unknown>; body: unknown }[] = [
  { why: "a general comment", args: { text: "Ship it." }, body: { text: "Ship it." } },
  {
    why: "a reply",
    args: { text: "Thanks, that settles it.", parent_id: 298 },
    body: { text: "Thanks, that settles it.", parent: { id: 298 } },
  },
  {
    why: "a file comment",
    args: { text: "Nice docs.", path: "docs/login.md" },
    body: { text: "Nice docs.", anchor: { path: "docs/login.md" } },
  },
  {
    why: "an inline comment on an added line (new side by default)",
    args: { text: "Should this be a constant?", path: "src/login/validate.ts", line: 3 },
    body: {
      text: "Should this be a constant?",
      anchor: { path: "src/login/validate.ts", line: 3, lineType: "ADDED", fileType: "TO" },
    },
  },
  {
    why: "an inline comment on a removed line, in any case (old side)",
    args: { text: "Why drop this?", path: "docs/login.md", line: 1, line_type: "removed" },
    body: {
      text: "Why drop this?",
      anchor: { path: "docs/login.md", line: 1, lineType: "REMOVED", fileType: "FROM" },
    },
  },
  {
    why: "an inline comment with an explicit side",
    args: {
      text: "Same here.",
      path: "src/login/form.ts",
      line: 11,
      line_type: "Context",
      file_type: "from",
    },
    body: {
      text: "Same here.",
      anchor: { path: "src/login/form.ts", line: 11, lineType: "CONTEXT", fileType: "FROM" },
    },
  },
  {
    why: "a task",
    args: { text: "Document the new validation rules.", task: true },
    body: { text: "Document the new validation rules.", severity: "BLOCKER" },
  },
];
for (const c of comments) {
  Deno.test(`add_pr_comment posts ${c.why}`, async () => {
    await using h = await connect();
    const { isError, text } = await call(h, "add_pr_comment", { ...ARGS, ...c.args });
    assert.ok(!isError, text);
    assert.deepEqual(seen(h), [{
      method: "POST",
      path: `${PR}/comments`,
      query: {},
      body: c.body,
    }]);
  });
}

Deno.test("add_pr_comment returns the new comment with its anchor", async () => {
  await using h = await connect({
    routes: [{
      method: "POST",
      path: `${PR}/comments`,
      status: 201,
      fixture: "pull_requests/inline-comment-created.json",
    }],
  });
  const { out } = await call(h, "add_pr_comment", {
    ...ARGS,
    text: "Should this be a constant?",
    path: "src/login/validate.ts",
    line: 3,
  });
  assert.equal(out.comment.id, 303);
  assert.deepEqual(out.comment.anchor, {
    path: "src/login/validate.ts",
    line: 3,
    lineType: "ADDED",
    fileType: "TO",
  });
  assert.deepEqual(out.comment.replies, []);
});

Deno.test("add_pr_comment returns a task as a BLOCKER", async () => {
  await using h = await connect({
    routes: [{
      method: "POST",
      path: `${PR}/comments`,
      status: 201,
      fixture: "pull_requests/task-created.json",
    }],
  });
  const { out } = await call(h, "add_pr_comment", { ...ARGS, text: "Document it.", task: true });
  assert.equal(out.comment.severity, "BLOCKER");
});

const badComments: { why: string; args: Record<string, unknown>; message: RegExp }[] = [
  { why: "a line without a path", args: { line: 3 }, message: /line needs path/ },
  {
    why: "a line type without a line",
    args: { path: "docs/login.md", line_type: "added" },
    message: /line_type and file_type need line/,
  },
  {
    why: "a reply with a path",
    args: { parent_id: 298, path: "docs/login.md" },
    message: /give parent_id or path/,
  },
  {
    why: "an unknown line type",
    args: { path: "docs/login.md", line: 1, line_type: "changed" },
    message: /line_type: must be one of ADDED, REMOVED, CONTEXT/,
  },
  {
    why: "an unknown file side",
    args: { path: "docs/login.md", line: 1, file_type: "new" },
    message: /file_type: must be one of FROM, TO/,
  },
  { why: "an empty text", args: { text: "" }, message: /text/ },
  { why: "a text over 32768 characters", args: { text: "x".repeat(32769) }, message: /text/ },
];
for (const c of badComments) {
  Deno.test(`add_pr_comment refuses ${c.why} before any request`, async () => {
    await using h = await connect();
    const { isError, text } = await call(h, "add_pr_comment", { ...ARGS, text: "Hm.", ...c.args });
    assert.ok(isError);
    assert.match(text, c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("update_pr_task resolves a task at the version it just read", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { out } = await call(h, "update_pr_task", { ...ARGS, task_id: 301, state: "Resolved" });
  assert.deepEqual(seen(h).map((r) => [r.method, r.body]), [
    ["GET", undefined],
    ["PUT", { version: 0, state: "RESOLVED" }],
  ]);
  assert.equal(out.task.state, "RESOLVED");
  assert.equal(out.task.resolvedDate, 1732960000000);
});

Deno.test("update_pr_task leaves a task already in that state alone", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { out } = await call(h, "update_pr_task", { ...ARGS, task_id: 301, state: "open" });
  assert.deepEqual(seen(h).map((r) => r.method), ["GET"]);
  assert.equal(out.task.state, "OPEN");
});

Deno.test("update_pr_task when the task changed meanwhile says so and what to do", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{
      method: "PUT",
      path: `${PR}/blocker-comments/301`,
      status: 409,
      fixture: "errors/comment-out-of-date.json",
    }],
  });
  const { isError, text } = await call(h, "update_pr_task", {
    ...ARGS,
    task_id: 301,
    state: "resolved",
  });
  assert.ok(isError);
  assert.match(text, /409 Conflict: You are attempting to modify a comment based on out-of-date/);
  assert.match(text, /hint: someone changed it.*read it again.*retry/);
});

// --- writes on the pull request --------------------------------------------

Deno.test("create_pull_request targets the given branch without asking for the default", async () => {
  await using h = await connect();
  const { out } = await call(h, "create_pull_request", {
    project: "PROJ",
    repo: "web",
    from_ref: "feature/signup",
    to_ref: "release/2.0",
    title: "Sign-up page",
    draft: true,
  });
  const web = { slug: "web", project: { key: "PROJ" } };
  assert.deepEqual(seen(h), [{
    method: "POST",
    path: `${REPO}/pull-requests`,
    query: {},
    body: {
      title: "Sign-up page",
      draft: true,
      fromRef: { id: "refs/heads/feature/signup", repository: web },
      toRef: { id: "refs/heads/release/2.0", repository: web },
    },
  }]);
  assert.equal(out.pullRequest.id, 44);
  assert.equal(out.pullRequest.version, 0);
});

const PR42_BODY = {
  version: 3,
  title: "Validate the login form before submitting",
  description:
    "Checks the username and password fields before the form is sent.\n\n- rejects an empty password\n- moves the auth docs to docs/login.md",
  reviewers: [{ user: { name: "asmith" } }, { user: { name: "bwilson" } }],
  toRef: { id: "refs/heads/main", repository: { slug: "web", project: { key: "PROJ" } } },
  draft: false,
};
const updates: { why: string; args: Record<string, unknown>; body: Record<string, unknown> }[] = [
  {
    why: "a new reviewer list replaces the old one",
    args: { reviewers: ["asmith", "c.davis@example.com"] },
    body: {
      ...PR42_BODY,
      reviewers: [{ user: { name: "asmith" } }, { user: { name: "c.davis@example.com" } }],
    },
  },
  {
    why: "a title alone keeps the description and reviewers",
    args: { title: "Validate the login form" },
    body: { ...PR42_BODY, title: "Validate the login form" },
  },
  {
    why: "an empty description clears it",
    args: { description: "" },
    body: { ...PR42_BODY, description: "" },
  },
  {
    why: "a new target and draft flag",
    args: { to_ref: "release/2.0", draft: true },
    body: {
      ...PR42_BODY,
      toRef: { ...PR42_BODY.toRef, id: "refs/heads/release/2.0" },
      draft: true,
    },
  },
];
for (const c of updates) {
  Deno.test(`update_pull_request at the version just read: ${c.why}`, async () => {
    await using h = await connect();
    const { out } = await call(h, "update_pull_request", { ...ARGS, ...c.args });
    assert.deepEqual(seen(h), [
      { method: "GET", path: PR, query: {} },
      { method: "PUT", path: PR, query: {}, body: c.body },
    ]);
    assert.equal(out.pullRequest.version, 4);
  });
}

Deno.test("update_pull_request with nothing to change makes no request", async () => {
  await using h = await connect();
  const { isError, text } = await call(h, "update_pull_request", ARGS);
  assert.ok(isError);
  assert.match(text, /Cannot update pull request #42: nothing to change/);
  assert.equal(h.fixture.requests.length, 0);
});

const reviews: { action: string; status: string }[] = [
  { action: "approve", status: "APPROVED" },
  { action: "UNAPPROVE", status: "UNAPPROVED" },
  { action: "needs_work", status: "NEEDS_WORK" },
  { action: "Needs-Work", status: "NEEDS_WORK" },
];
for (const c of reviews) {
  Deno.test(`submit_pr_review ${c.action} sets ${c.status} for the token's user`, async () => {
    await using h = await connect({ selection: { yolo: true } });
    const { isError, text } = await call(h, "submit_pr_review", { ...ARGS, action: c.action });
    assert.ok(!isError, text);
    assert.deepEqual(seen(h)[1], {
      method: "PUT",
      path: `${PR}/participants/${CALLER}`,
      query: {},
      body: { status: c.status },
    });
  });
}

Deno.test("submit_pr_review finds the slug of a caller who is not on the pull request yet", async () => {
  const caller = "c.davis@example.com";
  await using h = await connect({
    selection: { yolo: true },
    routes: [
      {
        method: "GET",
        path: PR,
        fixture: "pull_requests/pr-42.json",
        headers: { "X-AUSERNAME": caller },
      },
      {
        method: "GET",
        path: "/api/latest/users",
        query: { filter: caller },
        fixture: "pull_requests/users-cdavis.json",
      },
      {
        method: "PUT",
        path: `${PR}/participants/c.davis_example.com`,
        fixture: "pull_requests/participant-cdavis.json",
      },
    ],
  });
  const { out } = await call(h, "submit_pr_review", { ...ARGS, action: "needs_work" });
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [
    `GET ${PR}`,
    "GET /api/latest/users",
    `PUT ${PR}/participants/c.davis_example.com`,
  ]);
  assert.deepEqual(out.participant, {
    name: caller,
    displayName: "Carol Davis",
    role: "PARTICIPANT",
    status: "NEEDS_WORK",
    lastReviewedCommit: "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f",
  });
});

Deno.test("submit_pr_review refuses an unknown action before any request", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { isError, text } = await call(h, "submit_pr_review", { ...ARGS, action: "reject" });
  assert.ok(isError);
  assert.match(text, /action: must be one of APPROVE, UNAPPROVE, NEEDS_WORK \(any case\)/);
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("submit_pr_review does not review when Bitbucket names no user", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{ method: "GET", path: PR, fixture: "pull_requests/pr-42.json" }],
  });
  const { isError, text } = await call(h, "submit_pr_review", { ...ARGS, action: "approve" });
  assert.ok(isError);
  assert.match(text, /Cannot tell which user the token belongs to/);
  assert.deepEqual(seen(h).map((r) => r.method), ["GET"]);
});

const merges: {
  why: string;
  args: Record<string, unknown>;
  requests: { method: string; query: Record<string, string>; body?: unknown }[];
}[] = [
  {
    why: "without a version reads the current one first",
    args: {},
    requests: [
      { method: "GET", query: {} },
      { method: "POST", query: { version: "3" }, body: { version: 3 } },
    ],
  },
  {
    why: "with a version, a strategy in any case and a message",
    args: { version: 3, strategy: "Squash_FF_Only", message: "Login validation" },
    requests: [{
      method: "POST",
      query: { version: "3" },
      body: { version: 3, strategyId: "squash-ff-only", message: "Login validation" },
    }],
  },
];
for (const c of merges) {
  Deno.test(`merge_pull_request ${c.why}`, async () => {
    await using h = await connect({ selection: { yolo: true } });
    const { out } = await call(h, "merge_pull_request", { ...ARGS, ...c.args });
    assert.deepEqual(
      seen(h).map(({ method, query, body }) => ({ method, query, body })),
      c.requests.map((r) => ({ ...r, body: r.body })),
    );
    assert.equal(out.pullRequest.state, "MERGED");
    assert.equal(out.pullRequest.version, 4);
  });
}

Deno.test("merge_pull_request refuses an unknown strategy with the permitted ones", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { isError, text } = await call(h, "merge_pull_request", { ...ARGS, strategy: "octopus" });
  assert.ok(isError);
  assert.match(text, /strategy: must be one of no-ff, ff, ff-only, rebase-no-ff/);
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("merge_pull_request at a stale version says the pull request changed, with both versions", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{
      method: "POST",
      path: `${PR}/merge`,
      query: { version: "2" },
      status: 409,
      fixture: "errors/pull-request-out-of-date.json",
    }],
  });
  const { isError, text } = await call(h, "merge_pull_request", { ...ARGS, version: 2 });
  assert.ok(isError);
  assert.match(
    text,
    /^POST \/api\/latest\/projects\/PROJ\/repos\/web\/pull-requests\/42\/merge\?version=2 failed: 409 Conflict/,
  );
  assert.match(text, /modify a pull request based on out-of-date information/);
  assert.match(text, /version 2 was given, but it has changed and is now at version 3/);
  assert.match(text, /hint: someone changed it.*read it again.*retry/);
});

Deno.test("merge_pull_request refused by merge checks lists every veto", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{
      method: "POST",
      path: `${PR}/merge`,
      status: 409,
      fixture: "errors/pull-request-merge-vetoed.json",
    }],
  });
  const { isError, text } = await call(h, "merge_pull_request", { ...ARGS, version: 3 });
  assert.ok(isError);
  assert.match(text, /Merging the pull request has been vetoed/);
  assert.ok(
    text.includes(
      "vetoed by 2 merge check(s): 1) Requires all tasks to be resolved (You cannot merge this pull request while it has 1 unresolved task.); 2) Reviewer requested changes (Ben Wilson has marked this pull request as needing work.)",
    ),
    text,
  );
  assert.match(text, /hint: each veto is a merge check to satisfy first/);
});

Deno.test("decline_pull_request reads the version when none is given and passes the comment", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { out } = await call(h, "decline_pull_request", { ...ARGS, comment: "Superseded." });
  assert.deepEqual(
    seen(h).map(({ method, path, query, body }) => ({ method, path, query, body })),
    [
      { method: "GET", path: PR, query: {}, body: undefined },
      {
        method: "POST",
        path: `${PR}/decline`,
        query: { version: "3" },
        body: { version: 3, comment: "Superseded." },
      },
    ],
  );
  assert.equal(out.pullRequest.state, "DECLINED");
});

Deno.test("enable_auto_merge reports pending when the pull request stays open", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{ method: "POST", path: `${PR}/merge`, fixture: "pull_requests/pr-42.json" }],
  });
  const { out } = await call(h, "enable_auto_merge", ARGS);
  assert.deepEqual(out.autoMerge, { pullRequestId: 42, status: "pending" });
  assert.deepEqual(seen(h)[1]?.body, { version: 3, autoMerge: true });
});

Deno.test("enable_auto_merge reports merged when Bitbucket could merge at once", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { out } = await call(h, "enable_auto_merge", { ...ARGS, strategy: "rebase no ff" });
  assert.deepEqual(out.autoMerge, { pullRequestId: 42, status: "merged" });
  assert.deepEqual(seen(h)[1]?.body, { version: 3, autoMerge: true, strategyId: "rebase-no-ff" });
});

Deno.test("disable_auto_merge cancels the pending auto-merge", async () => {
  await using h = await connect();
  const { out } = await call(h, "disable_auto_merge", ARGS);
  assert.deepEqual(out.autoMerge, { pullRequestId: 42, status: "cancelled" });
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [`DELETE ${PR}/auto-merge`]);
});

// --- exposure --------------------------------------------------------------

Deno.test("by default the unsafe pull request tools are withheld and the safe writes offered", async () => {
  await using h = await connect();
  const { tools } = await h.client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of UNSAFE) assert.ok(!names.includes(name), `${name} is withheld`);
  for (const name of SAFE_WRITES) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `${name} is offered`);
    assert.equal(tool.annotations?.destructiveHint, false);
    assert.equal(tool.annotations?.readOnlyHint, false);
  }
});

Deno.test("with yolo the unsafe pull request tools are offered as destructive", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const { tools } = await h.client.listTools();
  for (const name of UNSAFE) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `${name} is offered`);
    assert.equal(tool.annotations?.destructiveHint, true, name);
  }
});

Deno.test("a withheld pull request tool cannot be called, and nothing reaches Bitbucket", async () => {
  await using h = await connect();
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: ARGS }).catch(
    (error) => ({ isError: true, content: [{ type: "text", text: String(error) }] }),
  );
  assert.equal(result.isError, true);
  assert.match(firstText(result), /merge_pull_request.*not found/);
  assert.equal(h.fixture.requests.length, 0);
});
