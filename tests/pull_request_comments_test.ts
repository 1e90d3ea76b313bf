/**
 * The comment and task tools of src/tools/pull_request_comments.ts: threads
 * read from the activities or one file's comments, tasks by state, comments
 * posted (general, replies, on a file or a line, tasks), and tasks resolved.
 */
import assert from "node:assert/strict";
import { PR, pullRequests } from "./cases/pull_requests.ts";
import { connect } from "./support/harness.ts";
import {
  ARGS,
  call,
  CommentPayload,
  CommentsPayload,
  payload,
  seen,
  TaskPayload,
  TasksPayload,
} from "./support/pr_calls.ts";

Deno.test("list_pr_comments gathers every thread from the activities, with anchors and replies, and no deleted comment", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, ARGS);
  assert.deepEqual(out.comments.map((c) => c.id), [301, 298, 297, 296]);
  const inline = out.comments[1]!;
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
    inline.replies.map((r) => [
      r.id,
      r.parentId,
      r.text,
    ]),
    [[299, 298, "Good catch, I'll trim it before checking."]],
  );
  assert.equal(out.comments[0]!.severity, "BLOCKER");
  assert.equal(out.comments[2]!.anchor, undefined, "a general comment has no anchor");
  assert.equal(out.isLastPage, true);
});

Deno.test("list_pr_comments pages by activity: nextPageStart resumes after the last thread given", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, { ...ARGS, limit: 2 });
  assert.deepEqual(out.comments.map((c) => c.id), [301, 298]);
  assert.equal(out.isLastPage, false);
  assert.equal(out.nextPageStart, 5, "the thread of 298 is the fifth activity");
});

Deno.test("list_pr_comments filters on state in any case", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, { ...ARGS, state: "resolved" });
  assert.deepEqual(out.comments.map((c) => c.id), [296]);
});

Deno.test("list_pr_comments with path asks the comments resource for that file", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "list_pr_comments", CommentsPayload, {
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
    out.comments.map((c) => [
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
    await using h = await connect({ routes: pullRequests.routes });
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
    }, ...pullRequests.routes],
  });
  const out = await payload(h, "add_pr_comment", CommentPayload, {
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
    }, ...pullRequests.routes],
  });
  const out = await payload(h, "add_pr_comment", CommentPayload, {
    ...ARGS,
    text: "Document it.",
    task: true,
  });
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
    await using h = await connect({ routes: pullRequests.routes });
    const { isError, text } = await call(h, "add_pr_comment", { ...ARGS, text: "Hm.", ...c.args });
    assert.ok(isError);
    assert.match(text, c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("update_pr_task resolves a task at the version it just read", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "update_pr_task", TaskPayload, {
    ...ARGS,
    task_id: 301,
    state: "Resolved",
  });
  assert.deepEqual(seen(h).map((r) => [r.method, r.body]), [
    ["GET", undefined],
    ["PUT", { version: 0, state: "RESOLVED" }],
  ]);
  assert.equal(out.task.state, "RESOLVED");
  assert.equal(out.task.resolvedDate, 1732960000000);
});

Deno.test("update_pr_task leaves a task already in that state alone", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "update_pr_task", TaskPayload, {
    ...ARGS,
    task_id: 301,
    state: "open",
  });
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
    }, ...pullRequests.routes],
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
