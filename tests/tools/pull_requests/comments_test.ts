/**
 * The comment and task tools of src/tools/pull_requests/comments.ts: threads
 * read from the activities as servers send them (the anchor on the comment or
 * on its activity, resolved discussions, comments published with a review,
 * deletions), one file's comments, tasks by state (filtered here too), and
 * comments posted: general, replies, on a file, a line or a range, tasks and drafts.
 */
import assert from "node:assert/strict";
import { PR, pullRequests } from "../../../testing/cases/pull_requests.ts";
import { connect } from "../../../testing/harness.ts";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { APPLICATION_PROPERTIES } from "../../../testing/cases/server_version.ts";
import {
  ARGS,
  call,
  CommentPayload,
  CommentsPayload,
  payload,
  seen,
  TasksPayload,
} from "../../support/pr_calls.ts";

const BEN = { name: "bwilson", displayName: "Ben Wilson" };

Deno.test("list_pr_comments gathers every thread from the activities, newest first, and no deleted one", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, ARGS);
  // 309 came with a finished review (REVIEW_COMMENTED); 295 was deleted; replies are not threads.
  assert.deepEqual(out.comments.map((c) => c.id), [309, 301, 300, 298, 297, 296]);
  assert.deepEqual(seen(h), [{
    method: "GET",
    path: `${PR}/activities`,
    query: { start: "0", limit: "100" },
  }]);
  const byId = new Map(out.comments.map((c) => [c.id, c]));
  assert.equal(byId.get(301)?.severity, "BLOCKER");
  assert.equal(byId.get(300)?.anchor, undefined, "a general comment has no anchor");
  assert.equal(byId.get(309)?.anchor?.path, "src/login/validate.ts");
  assert.deepEqual(
    byId.get(298)?.replies.map((r) => [r.id, r.parentId, r.text]),
    [[299, 298, "Good catch, I'll trim it before checking."]],
  );
  assert.equal(out.isLastPage, true);
});

const placements: { why: string; id: number; anchor: Record<string, unknown> }[] = [
  {
    why: "on the comment itself (anchor)",
    id: 298,
    anchor: { path: "src/login/form.ts", line: 15, lineType: "ADDED", fileType: "TO" },
  },
  {
    why: "only on its activity (commentAnchor), as servers also send it",
    id: 297,
    anchor: {
      path: "docs/login.md",
      line: 1,
      lineType: "ADDED",
      fileType: "TO",
      srcPath: "docs/auth.md",
    },
  },
];
for (const c of placements) {
  Deno.test(`list_pr_comments reads an inline comment's location ${c.why}`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const out = await payload(h, "list_pr_comments", CommentsPayload, ARGS);
    assert.deepEqual(out.comments.find((t) => t.id === c.id)?.anchor, c.anchor);
  });
}

Deno.test("list_pr_comments shows a resolved discussion as resolved, apart from its state", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, ARGS);
  const resolved = out.comments.find((c) => c.id === 298);
  assert.equal(resolved?.threadResolved, true);
  assert.deepEqual(resolved?.threadResolver, BEN);
  assert.equal(resolved?.threadResolvedDate, "2024-11-28T10:41:40Z");
  assert.equal(resolved?.state, "OPEN", "a comment's state stays its own");
  assert.deepEqual(
    out.comments.filter((c) => c.threadResolved).map((c) => c.id),
    [298],
    "the others are open",
  );
});

const filters: { args: Record<string, unknown>; ids: number[] }[] = [
  { args: { resolved: true }, ids: [298] },
  { args: { resolved: false }, ids: [309, 301, 300, 297, 296] },
  { args: { state: "resolved" }, ids: [296] },
  { args: { state: "open", resolved: false }, ids: [309, 301, 300, 297] },
];
for (const c of filters) {
  Deno.test(`list_pr_comments filters on ${JSON.stringify(c.args)}`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const out = await payload(h, "list_pr_comments", CommentsPayload, { ...ARGS, ...c.args });
    assert.deepEqual(out.comments.map((t) => t.id), c.ids);
  });
}

Deno.test("list_pr_comments with path asks the comments resource for that file, outdated comments included", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, {
    ...ARGS,
    path: "src/login/form.ts",
    state: "open",
  });
  assert.deepEqual(seen(h), [{
    method: "GET",
    path: `${PR}/comments`,
    query: {
      path: "src/login/form.ts",
      state: "OPEN",
      anchorState: "ALL",
      start: "0",
      limit: "25",
    },
  }]);
  const listed = JSON.parse(readFixture("pull_requests/comments-form-ts-all.json")).values as {
    id: number;
    anchor: { line: number; orphaned?: boolean };
  }[];
  const outdated = listed.filter((c) => c.anchor.orphaned).map((c) => c.id);
  assert.ok(outdated.length > 0, "the fixture lists an outdated comment");
  assert.deepEqual(out.comments.map((c) => c.id), listed.map((c) => c.id));
  assert.deepEqual(
    out.comments.filter((c) => c.anchor?.orphaned === true).map((c) => c.id),
    outdated,
  );
  assert.equal(out.comments[0]?.anchor?.line, listed[0]?.anchor.line);
  assert.equal(out.comments[0]?.anchor?.orphaned, undefined, "a current comment is not marked");
});

const taskListings: { state?: string; query: Record<string, string>; ids: number[] }[] = [
  { query: { state: "OPEN", start: "0", limit: "25" }, ids: [301] },
  { state: "Resolved", query: { state: "RESOLVED", start: "0", limit: "25" }, ids: [296] },
  { state: "all", query: { start: "0", limit: "25" }, ids: [301, 296] },
];
for (const c of taskListings) {
  Deno.test(`list_pr_tasks with state ${c.state ?? "(default)"}`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const out = await payload(h, "list_pr_tasks", TasksPayload, { ...ARGS, state: c.state });
    assert.deepEqual(seen(h), [{ method: "GET", path: `${PR}/blocker-comments`, query: c.query }]);
    assert.deepEqual(out.tasks.map((t) => t.id), c.ids);
  });
}

Deno.test("list_pr_tasks shows when a resolved task was resolved", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_tasks", TasksPayload, { ...ARGS, state: "RESOLVED" });
  assert.deepEqual(out.tasks[0], {
    id: 296,
    version: 2,
    author: { name: "asmith", displayName: "Alex Smith" },
    text: "Rename handleSubmit to submitLogin.",
    createdDate: "2024-11-27T12:20:00Z",
    state: "RESOLVED",
    resolvedDate: "2024-11-27T20:40:00Z",
  });
});

/** A line anchor as real servers take it: EFFECTIVE diff, the side by the line's kind. */
const at = (path: string, line: number, lineType: string, fileType: string) => ({
  path,
  diffType: "EFFECTIVE",
  line,
  lineType,
  fileType,
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
      anchor: at("src/login/validate.ts", 3, "ADDED", "TO"),
    },
  },
  {
    why: "an inline comment on a removed line, in any case (old side)",
    args: { text: "Why drop this?", path: "docs/login.md", line: 1, line_type: "removed" },
    body: { text: "Why drop this?", anchor: at("docs/login.md", 1, "REMOVED", "FROM") },
  },
  {
    why: "an inline comment on a context line (its new number, as verified clients send it)",
    args: { text: "Same here.", path: "src/login/form.ts", line: 12, line_type: "Context" },
    body: { text: "Same here.", anchor: at("src/login/form.ts", 12, "CONTEXT", "TO") },
  },
  {
    why: "a comment on a moved file, naming its old path",
    args: { text: "Keep an anchor.", path: "docs/login.md", src_path: "docs/auth.md", line: 1 },
    body: {
      text: "Keep an anchor.",
      anchor: { srcPath: "docs/auth.md", ...at("docs/login.md", 1, "ADDED", "TO") },
    },
  },
  {
    why: "a range of added lines: its last line, where it starts and the span on the new side",
    args: { text: "Loop instead.", path: "src/login/validate.ts", line: 9, start_line: 4 },
    body: {
      text: "Loop instead.",
      anchor: {
        ...at("src/login/validate.ts", 9, "ADDED", "TO"),
        multilineMarker: { startLine: 4, startLineType: "ADDED" },
        multilineSpan: { dstSpanStart: 4, dstSpanEnd: 9 },
      },
    },
  },
  {
    why: "a range given end first, turned round",
    args: { text: "Loop instead.", path: "src/login/validate.ts", line: 4, start_line: 9 },
    body: {
      text: "Loop instead.",
      anchor: {
        ...at("src/login/validate.ts", 9, "ADDED", "TO"),
        multilineMarker: { startLine: 4, startLineType: "ADDED" },
        multilineSpan: { dstSpanStart: 4, dstSpanEnd: 9 },
      },
    },
  },
  {
    why: "a range starting on a context line, on the new side",
    args: {
      text: "This whole block.",
      path: "src/login/form.ts",
      line: 15,
      start_line: 13,
      start_line_type: "context",
    },
    body: {
      text: "This whole block.",
      anchor: {
        ...at("src/login/form.ts", 15, "ADDED", "TO"),
        multilineMarker: { startLine: 13, startLineType: "CONTEXT" },
        multilineSpan: { dstSpanStart: 13, dstSpanEnd: 15 },
      },
    },
  },
  {
    why: "a range of removed lines, on the old side",
    args: {
      text: "Why all this?",
      path: "docs/login.md",
      line: 3,
      start_line: 1,
      line_type: "removed",
    },
    body: {
      text: "Why all this?",
      anchor: {
        ...at("docs/login.md", 3, "REMOVED", "FROM"),
        multilineMarker: { startLine: 1, startLineType: "REMOVED" },
        multilineSpan: { srcSpanStart: 1, srcSpanEnd: 3 },
      },
    },
  },
  {
    why: "a range of one line, as that line",
    args: { text: "This one.", path: "src/login/validate.ts", line: 4, start_line: 4 },
    body: { text: "This one.", anchor: at("src/login/validate.ts", 4, "ADDED", "TO") },
  },
  {
    why: "a task",
    args: { text: "Document the new validation rules.", task: true },
    body: { text: "Document the new validation rules.", severity: "BLOCKER" },
  },
  {
    why: "a draft on a file, seen only by its author until the review is submitted",
    args: { text: "Needs a test.", path: "src/login/validate.ts", line: 3, pending: true },
    body: {
      text: "Needs a test.",
      anchor: at("src/login/validate.ts", 3, "ADDED", "TO"),
      state: "PENDING",
    },
  },
  {
    why: "a draft reply",
    args: { text: "Agreed.", parent_id: 298, pending: true },
    body: { text: "Agreed.", parent: { id: 298 }, state: "PENDING" },
  },
];
for (const c of comments) {
  Deno.test(`add_pr_comment posts ${c.why}`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const { isError, text } = await call(h, "add_pr_comment", { ...ARGS, ...c.args });
    assert.ok(!isError, text);
    // A range needs 9.3: the server's version is read before it is posted.
    const range = JSON.stringify(c.body).includes("multilineMarker");
    assert.deepEqual(h.fixture.requests.map((r) => r.path), [
      ...(range ? [APPLICATION_PROPERTIES] : []),
      `${PR}/comments`,
    ]);
    assert.deepEqual(seen(h), [
      { method: "POST", path: `${PR}/comments`, query: {}, body: c.body },
    ]);
  });
}

Deno.test("add_pr_comment: a range lands on its lines, as a 9.3+ server stores it", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "add_pr_comment", CommentPayload, {
    ...ARGS,
    text: "```suggestion\nfor (const field of fields) check(field);\n```",
    path: "src/login/validate.ts",
    start_line: 4,
    line: 9,
  });
  assert.deepEqual(
    [out.comment.anchor?.startLine, out.comment.anchor?.line, out.comment.anchor?.fileType],
    [4, 9, "TO"],
    "a server given no span keeps only the last line, and Apply would replace only it",
  );
});

const created: {
  why: string;
  fixture: string;
  args: Record<string, unknown>;
  check: (c: typeof CommentPayload._output.comment) => void;
}[] = [
  {
    why: "the new inline comment with its anchor",
    fixture: "pull_requests/inline-comment-created.json",
    args: { text: "Should this be a constant?", path: "src/login/validate.ts", line: 3 },
    check: (c) => {
      assert.equal(c.id, 303);
      assert.deepEqual(c.anchor, {
        path: "src/login/validate.ts",
        line: 3,
        lineType: "ADDED",
        fileType: "TO",
      });
      assert.deepEqual(c.replies, []);
    },
  },
  {
    why: "a task as a BLOCKER",
    fixture: "pull_requests/task-created.json",
    args: { text: "Document it.", task: true },
    check: (c) => assert.equal(c.severity, "BLOCKER"),
  },
  {
    why: "a draft as PENDING, on the moved file",
    fixture: "pull_requests/pending-comment-created.json",
    args: { text: "Keep an anchor.", path: "docs/login.md", src_path: "docs/auth.md", line: 1 },
    check: (c) => {
      assert.equal(c.state, "PENDING");
      assert.deepEqual(c.anchor, {
        path: "docs/login.md",
        line: 1,
        lineType: "ADDED",
        fileType: "TO",
        srcPath: "docs/auth.md",
      });
    },
  },
  {
    why: "a range with the line it starts at",
    fixture: "pull_requests/multiline-comment-created.json",
    args: { text: "Loop.", path: "src/login/validate.ts", line: 9, start_line: 4, pending: true },
    check: (c) => {
      assert.equal(c.id, 311);
      assert.deepEqual(c.anchor, {
        path: "src/login/validate.ts",
        line: 9,
        lineType: "ADDED",
        fileType: "TO",
        startLine: 4,
        startLineType: "ADDED",
      });
    },
  },
];
for (const c of created) {
  Deno.test(`add_pr_comment returns ${c.why}`, async () => {
    await using h = await connect({
      routes: [
        { method: "POST", path: `${PR}/comments`, status: 201, fixture: c.fixture },
        ...pullRequests.routes,
      ],
    });
    const out = await payload(h, "add_pr_comment", CommentPayload, { ...ARGS, ...c.args });
    c.check(out.comment);
  });
}

const badComments: { why: string; args: Record<string, unknown>; message: RegExp }[] = [
  { why: "a line without a path", args: { line: 3 }, message: /line and src_path need path/ },
  {
    why: "a source path without a path",
    args: { src_path: "docs/auth.md" },
    message: /line and src_path need path/,
  },
  {
    why: "a line type without a line",
    args: { path: "docs/login.md", line_type: "added" },
    message: /line_type and start_line need line/,
  },
  {
    why: "a range start without a line",
    args: { path: "docs/login.md", start_line: 2 },
    message: /line_type and start_line need line/,
  },
  {
    why: "a range start type without a range start",
    args: { path: "docs/login.md", line: 2, start_line_type: "context" },
    message: /start_line_type needs start_line/,
  },
  {
    why: "a range from a removed line to an added one (two sides)",
    args: { path: "src/login/validate.ts", line: 9, start_line: 4, start_line_type: "removed" },
    message: /on the new side, so it cannot start on a removed line/,
  },
  {
    why: "a range from an added line to a removed one (two sides)",
    args: {
      path: "src/login/validate.ts",
      line: 9,
      line_type: "removed",
      start_line: 4,
      start_line_type: "added",
    },
    message: /on the old side, so it must start on a removed line too/,
  },
  {
    why: "a draft that is not on a file, which Bitbucket would publish at once",
    args: { pending: true },
    message: /keeps a draft private only when it is on a file \(hint: give path/,
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
  { why: "line 0", args: { path: "docs/login.md", line: 0 }, message: /line/ },
  { why: "an empty text", args: { text: "" }, message: /text/ },
  { why: "a text over 32768 characters", args: { text: "x".repeat(32769) }, message: /text/ },
];
for (const c of badComments) {
  Deno.test(`add_pr_comment refuses ${c.why} before any request`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const { isError, text } = await call(h, "add_pr_comment", { ...ARGS, text: "Hm.", ...c.args });
    assert.ok(isError);
    assert.match(text, c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}
