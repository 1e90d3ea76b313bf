/**
 * A whole review, as an agent plays it against the fixture Bitbucket: find the
 * pull request, read it, the Jira issues it links, its changes, diff and
 * threads, leave draft comments (one on a moved file, one on a range),
 * publish them with a needs-work verdict and a summary, see the author's
 * reply, resolve that thread, edit a comment, read the head commit's
 * analysis findings, post a report with two findings of its own, check the
 * merge status and merge with a strategy the repository allows. Every step
 * checks the requests Bitbucket received and the payload the tool named.
 */
import assert from "node:assert/strict";
import { builds, FIRST_ANNOTATION } from "../../testing/cases/builds.ts";
import { CALLER, PR, pullRequests, REPO } from "../../testing/cases/pull_requests.ts";
import { storedComment } from "../../testing/cases/stored_comment.ts";
import { APPLICATION_PROPERTIES } from "../../testing/cases/server_version.ts";
import { jira, PR_ISSUES } from "../../testing/cases/jira.ts";
import { readFixture, type Route } from "../../testing/fixture_bitbucket.ts";
import { connect, firstText, type Harness } from "../../testing/harness.ts";

const PR42 = { project: "PROJ", repo: "web", pr_id: 42 };
const HEAD = "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f";

/** The review's own answers, in front of the domain's: each is Bitbucket's state at that point. */
const REVIEW_ROUTES: Route[] = [
  // The stream before the review is published, then after it (with the author's reply).
  { method: "GET", path: `${PR}/activities`, fixture: "pull_requests/activities.json", once: true },
  {
    method: "GET",
    path: `${PR}/activities`,
    fixture: "pull_requests/activities-after-review.json",
  },
  {
    method: "POST",
    path: `${PR}/comments`,
    status: 201,
    respond: storedComment("pull_requests/pending-comment-created.json"),
    once: true,
  },
  {
    method: "POST",
    path: `${PR}/comments`,
    status: 201,
    respond: storedComment("pull_requests/multiline-comment-created.json"),
    once: true,
  },
];

type Sent = { method: string; path: string; query: Record<string, string>; body?: unknown };

/** Calls one tool; gives its payload and the requests Bitbucket received for it. */
async function step(
  h: Harness,
  name: string,
  args: Record<string, unknown>,
): Promise<{ out: Record<string, unknown>; sent: Sent[]; text: string }> {
  const before = h.fixture.requests.length;
  const result = await h.client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name}: ${firstText(result)}`);
  const sent = h.fixture.requests.slice(before).map((r) => ({
    method: r.method,
    path: r.path,
    query: r.query,
    ...(r.body === undefined ? {} : { body: r.body }),
  }));
  return {
    out: result.structuredContent as Record<string, unknown>,
    sent,
    text: firstText(result),
  };
}

type Thread = {
  id: number;
  anchor?: { path: string; line?: number };
  threadResolved: boolean;
  replies: { id: number; author: { name: string }; text: string }[];
};

Deno.test("review loop: from the open pull requests to a merge, as Bitbucket answers each step", async () => {
  await using h = await connect({
    routes: [...REVIEW_ROUTES, ...pullRequests.routes, ...builds.routes, ...jira.routes],
    selection: { yolo: true },
  });

  // 1. The open pull requests of the repository.
  const listed = await step(h, "list_pull_requests", { project: "PROJ", repo: "web" });
  assert.deepEqual(listed.sent, [{
    method: "GET",
    path: `${REPO}/pull-requests`,
    query: { state: "OPEN", start: "0", limit: "25" },
  }]);
  const prs = listed.out.pullRequests as { id: number; title: string }[];
  assert.equal(prs.find((p) => p.id === 42)?.title, "Validate the login form before submitting");

  // 2. The pull request itself: its head commit.
  const read = await step(h, "get_pull_request", PR42);
  assert.deepEqual(read.sent, [{ method: "GET", path: PR, query: {} }]);
  const pr = read.out.pullRequest as { version: number; fromRef: { latestCommit: string } };
  assert.equal(pr.fromRef.latestCommit, HEAD);

  // 2b. The Jira issues its commits name, through the Jira integration.
  const issues = await step(h, "list_pr_jira_issues", PR42);
  assert.deepEqual(issues.sent, [{ method: "GET", path: PR_ISSUES, query: {} }]);
  assert.deepEqual((issues.out.issues as { key: string }[]).map((i) => i.key), [
    "WEB-17",
    "WEB-23",
  ]);

  // 3. Its changes and its diff.
  const changes = await step(h, "list_pr_changes", PR42);
  assert.deepEqual(changes.sent, [{
    method: "GET",
    path: `${PR}/changes`,
    query: { start: "0", limit: "25" },
  }]);
  assert.deepEqual(
    (changes.out.changes as { path: string; srcPath?: string }[]).map((c) => [c.path, c.srcPath]),
    [["docs/login.md", "docs/auth.md"], ["src/login/form.ts", undefined], [
      "src/login/validate.ts",
      undefined,
    ]],
  );
  const diff = await step(h, "get_pr_diff", PR42);
  assert.deepEqual(diff.sent, [{ method: "GET", path: `${PR}.diff`, query: {} }]);
  assert.equal(diff.text, readFixture("pull_requests/pr-42.diff"));

  // 4. Its threads: inline ones with path and line, wherever the server put them; one resolved.
  const threads = await step(h, "list_pr_comments", PR42);
  assert.deepEqual(threads.sent, [{
    method: "GET",
    path: `${PR}/activities`,
    query: { start: "0", limit: "100" },
  }]);
  const before = threads.out.comments as Thread[];
  assert.deepEqual(
    before.filter((t) => t.anchor).map((t) => [t.id, t.anchor?.path, t.anchor?.line]),
    [[309, "src/login/validate.ts", 3], [298, "src/login/form.ts", 15], [
      297,
      "docs/login.md",
      1,
    ]],
  );
  assert.deepEqual(before.filter((t) => t.threadResolved).map((t) => t.id), [298]);

  // 5. Two drafts: one on the moved file, one on a range of lines.
  const onMoved = await step(h, "add_pr_comment", {
    ...PR42,
    text: "Keep an anchor for the old heading: links to #authentication break otherwise.",
    path: "docs/login.md",
    src_path: "docs/auth.md",
    line: 1,
    pending: true,
  });
  assert.deepEqual(onMoved.sent, [{
    method: "POST",
    path: `${PR}/comments`,
    query: {},
    body: {
      text: "Keep an anchor for the old heading: links to #authentication break otherwise.",
      anchor: {
        path: "docs/login.md",
        srcPath: "docs/auth.md",
        diffType: "EFFECTIVE",
        line: 1,
        lineType: "ADDED",
        fileType: "TO",
      },
      state: "PENDING",
    },
  }]);
  assert.deepEqual(
    [(onMoved.out.comment as { id: number }).id, (onMoved.out.comment as { state: string }).state],
    [310, "PENDING"],
  );
  const onRange = await step(h, "add_pr_comment", {
    ...PR42,
    text: "These two checks repeat each other; loop over the fields instead.",
    path: "src/login/validate.ts",
    start_line: 4,
    line: 9,
    pending: true,
  });
  // A range needs 9.3: the server's version is read first (once per server).
  assert.deepEqual(onRange.sent.map((r) => `${r.method} ${r.path}`), [
    `GET ${APPLICATION_PROPERTIES}`,
    `POST ${PR}/comments`,
  ]);
  assert.deepEqual(onRange.sent.filter((r) => r.method === "POST").map((r) => r.body), [{
    text: "These two checks repeat each other; loop over the fields instead.",
    anchor: {
      path: "src/login/validate.ts",
      diffType: "EFFECTIVE",
      line: 9,
      lineType: "ADDED",
      fileType: "TO",
      multilineMarker: { startLine: 4, startLineType: "ADDED" },
      multilineSpan: { dstSpanStart: 4, dstSpanEnd: 9 },
    },
    state: "PENDING",
  }]);
  const range = onRange.out.comment as { id: number; anchor: Record<string, unknown> };
  assert.deepEqual([range.id, range.anchor.startLine, range.anchor.line], [311, 4, 9]);

  // 6. Publish them with the verdict and a summary.
  const summary = "Two things before this goes in; see the inline comments.";
  const review = await step(h, "submit_pr_review", {
    ...PR42,
    action: "needs_work",
    comment: summary,
  });
  assert.deepEqual(review.sent, [
    { method: "GET", path: `${PR}/review`, query: { start: "0", limit: "1000" } },
    {
      method: "PUT",
      path: `${PR}/review`,
      query: {},
      body: { participantStatus: "NEEDS_WORK", commentText: summary },
    },
  ]);
  assert.deepEqual(review.out.published, [310, 311]);
  assert.deepEqual(
    [
      (review.out.participant as { name: string }).name,
      (review.out.participant as { status: string }).status,
    ],
    [CALLER, "NEEDS_WORK"],
  );

  // 7. The author's reply appears under the range comment; the summary is a thread of its own.
  const after = await step(h, "list_pr_comments", PR42);
  assert.deepEqual(after.sent.map((r) => r.path), [`${PR}/activities`]);
  const published = after.out.comments as Thread[];
  assert.deepEqual(published.slice(0, 3).map((t) => t.id), [312, 311, 310]);
  assert.deepEqual(
    published.find((t) => t.id === 311)?.replies.map((r) => [r.id, r.author.name, r.text]),
    [[313, "jdoe", "Done: one loop over both fields now."]],
  );

  // 8. Resolve that thread.
  const resolved = await step(h, "update_pr_comment", {
    ...PR42,
    comment_id: 311,
    thread_resolved: true,
  });
  assert.deepEqual(resolved.sent, [
    { method: "GET", path: `${PR}/comments/311`, query: {} },
    {
      method: "PUT",
      path: `${PR}/comments/311`,
      query: {},
      body: { version: 0, threadResolved: true },
    },
  ]);
  assert.equal((resolved.out.comment as Thread).threadResolved, true);

  // 9. Edit the other comment.
  const text =
    'Keep an anchor for the old heading (`<a id="authentication"></a>`): links to #authentication break otherwise.';
  const edited = await step(h, "update_pr_comment", { ...PR42, comment_id: 310, text });
  assert.deepEqual(edited.sent.map((r) => [r.method, r.body]), [
    ["GET", undefined],
    ["PUT", { version: 0, text }],
  ]);
  assert.deepEqual(
    [
      (edited.out.comment as { version: number }).version,
      (edited.out.comment as { text: string }).text,
    ],
    [1, text],
  );

  // 10. What code analysis found on the head commit.
  const findings = await step(h, "list_code_insights_annotations", {
    project: "PROJ",
    repo: "web",
    commit_id: pr.fromRef.latestCommit,
  });
  assert.deepEqual(findings.sent, [{
    method: "GET",
    path: `/insights/latest/projects/PROJ/repos/web/commits/${HEAD}/annotations`,
    query: {},
  }]);
  const found = findings.out.annotations as { path: string; line: number; severity: string }[];
  assert.deepEqual(found[0], FIRST_ANNOTATION);

  // 10b. The reviewer's own analysis, posted on the head commit: a report and two findings.
  const report =
    `/insights/latest/projects/PROJ/repos/web/commits/${HEAD}/reports/com.example.lint`;
  h.fixture.prepend([
    { method: "PUT", path: report, fixture: "builds/insights-report-created.json" },
    { method: "POST", path: `${report}/annotations`, status: 204 },
  ]);
  const posted = await step(h, "create_code_insights_report", {
    project: "PROJ",
    repo: "web",
    commit_id: HEAD,
    report_key: "com.example.lint",
    title: "ESLint",
    result: "FAIL",
    data: { Errors: 1, Warnings: 1 },
  });
  assert.deepEqual(posted.sent.map((r) => [r.method, r.path]), [["PUT", report]]);
  assert.equal((posted.out.report as { result: string }).result, "FAIL");
  const annotated = await step(h, "add_code_insights_annotations", {
    project: "PROJ",
    repo: "web",
    commit_id: HEAD,
    report_key: "com.example.lint",
    annotations: [
      { path: "src/login/validate.ts", line: 3, message: "Unused minLength", severity: "LOW" },
      { path: "src/login/form.ts", line: 12, message: "Password logged", severity: "HIGH" },
    ],
  });
  assert.deepEqual(annotated.sent.map((r) => [r.method, r.path]), [
    ["POST", `${report}/annotations`],
  ]);
  assert.deepEqual(
    (annotated.sent[0]?.body as { annotations: { severity: string }[] }).annotations.map((a) =>
      a.severity
    ),
    ["LOW", "HIGH"],
  );

  // 11. Whether it can merge, and how the repository lets it.
  const status = await step(h, "get_pr_merge_status", PR42);
  assert.deepEqual(status.sent.map((r) => r.path), [
    `${PR}/merge`,
    `${REPO}/settings/pull-requests`,
  ]);
  const merge = status.out.mergeStatus as { strategies: string[]; defaultStrategy: string };
  assert.deepEqual([merge.strategies, merge.defaultStrategy], [["no-ff", "squash"], "no-ff"]);

  // 12. Merge with an allowed strategy, at the version read.
  const strategy = merge.strategies.find((s) => s !== merge.defaultStrategy);
  const merged = await step(h, "merge_pull_request", { ...PR42, version: pr.version, strategy });
  assert.deepEqual(merged.sent, [{
    method: "POST",
    path: `${PR}/merge`,
    query: { version: "3" },
    body: { version: 3, strategyId: "squash" },
  }]);
  assert.equal((merged.out.pullRequest as { state: string }).state, "MERGED");
  assert.deepEqual(h.fixture.unmatched, [], "every request had an answer");
});
