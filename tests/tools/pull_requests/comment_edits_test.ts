/**
 * The tools of src/tools/pull_requests/comment_edits.ts: editing a comment,
 * resolving or reopening its thread or its task (resolving a task asks the
 * person first, unless --yolo), deleting it, and applying a suggestion, each at the version just read.
 */
import assert from "node:assert/strict";
import { PR, pullRequests } from "../../../testing/cases/pull_requests.ts";
import { connect } from "../../../testing/harness.ts";
import {
  ARGS,
  call,
  CommentPayload,
  DeletedPayload,
  payload,
  seen,
  SuggestionPayload,
} from "../../support/pr_calls.ts";

const updates: {
  why: string;
  args: Record<string, unknown>;
  id: number;
  body: Record<string, unknown>;
  yolo?: boolean;
}[] = [
  {
    why: "edits the text",
    id: 310,
    args: { comment_id: 310, text: "Keep an anchor for the old heading." },
    body: { version: 0, text: "Keep an anchor for the old heading." },
  },
  {
    why: "resolves the thread",
    id: 311,
    args: { comment_id: 311, thread_resolved: true },
    body: { version: 0, threadResolved: true },
  },
  {
    why: "edits and resolves at once",
    id: 311,
    args: { comment_id: 311, text: "Loop over the fields.", thread_resolved: true },
    body: { version: 0, text: "Loop over the fields.", threadResolved: true },
  },
  {
    why: "resolves a task under --yolo",
    id: 301,
    args: { comment_id: 301, task_state: "resolved" },
    body: { version: 0, state: "RESOLVED" },
    yolo: true,
  },
];
for (const c of updates) {
  Deno.test(`update_pr_comment ${c.why}, at the version just read`, async () => {
    await using h = await connect({
      routes: pullRequests.routes,
      selection: { yolo: c.yolo ?? false },
    });
    const { isError, text } = await call(h, "update_pr_comment", { ...ARGS, ...c.args });
    assert.ok(!isError, text);
    assert.deepEqual(seen(h), [
      { method: "GET", path: `${PR}/comments/${c.id}`, query: {} },
      { method: "PUT", path: `${PR}/comments/${c.id}`, query: {}, body: c.body },
    ]);
  });
}

Deno.test("update_pr_comment returns the thread as Bitbucket answers it, resolved", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "update_pr_comment", CommentPayload, {
    ...ARGS,
    comment_id: 311,
    thread_resolved: true,
  });
  assert.equal(out.comment.version, 1);
  assert.equal(out.comment.threadResolved, true);
  assert.deepEqual(out.comment.threadResolver, { name: "bwilson", displayName: "Ben Wilson" });
  assert.deepEqual(out.comment.replies.map((r) => r.id), [313]);
});

const noChange: { why: string; args: Record<string, unknown> }[] = [
  { why: "a thread already open", args: { comment_id: 311, thread_resolved: false } },
  {
    why: "the text it already has",
    args: {
      comment_id: 310,
      text: "Keep an anchor for the old heading: links to #authentication break otherwise.",
    },
  },
  { why: "a task already open", args: { comment_id: 301, task_state: "open" } },
];
for (const c of noChange) {
  Deno.test(`update_pr_comment leaves ${c.why} alone`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const out = await payload(h, "update_pr_comment", CommentPayload, { ...ARGS, ...c.args });
    assert.deepEqual(seen(h).map((r) => r.method), ["GET"]);
    assert.equal(out.comment.version, 0);
  });
}

Deno.test("update_pr_comment reopens a task without --yolo: it only holds the merge again", async () => {
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${PR}/comments/301`,
        fixture: "pull_requests/task-301-resolved.json",
      },
      ...pullRequests.routes,
    ],
  });
  await payload(h, "update_pr_comment", CommentPayload, {
    ...ARGS,
    comment_id: 301,
    task_state: "OPEN",
  });
  assert.deepEqual(seen(h)[1]?.body, { version: 1, state: "OPEN" });
});

Deno.test("update_pr_comment asks the person before resolving a task; a yes resolves it", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: pullRequests.routes,
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { confirm: true } };
    },
  });
  await payload(h, "update_pr_comment", CommentPayload, {
    ...ARGS,
    comment_id: 301,
    task_state: "resolved",
  });
  assert.deepEqual(asked, [
    'Resolve task 301 "Add a test for an empty password." of pull request #42 in PROJ/web (version 0), lifting the merge check it holds',
  ]);
  assert.deepEqual(seen(h).at(-1)?.body, { version: 0, state: "RESOLVED" });
});

Deno.test("update_pr_comment refuses resolving a task for a client that cannot ask, before any write", async () => {
  await using h = await connect({ routes: pullRequests.routes, era: "legacy" });
  const { isError, text } = await call(h, "update_pr_comment", {
    ...ARGS,
    comment_id: 301,
    task_state: "resolved",
  });
  assert.ok(isError);
  assert.match(text, /cannot ask them.*--yolo/);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
});

const refusals: {
  why: string;
  args: Record<string, unknown>;
  message: RegExp;
  requests: number;
}[] = [
  {
    why: "nothing to change",
    args: { comment_id: 310 },
    message: /nothing to change \(hint: give text, thread_resolved or task_state\)/,
    requests: 0,
  },
  {
    why: "a task state for a comment that is no task",
    args: { comment_id: 311, task_state: "open" },
    message: /it is a comment, not a task.*thread_resolved resolves a discussion/,
    requests: 1,
  },
  { why: "an empty text", args: { comment_id: 310, text: "" }, message: /text/, requests: 0 },
];
for (const c of refusals) {
  Deno.test(`update_pr_comment refuses ${c.why}`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const { isError, text } = await call(h, "update_pr_comment", { ...ARGS, ...c.args });
    assert.ok(isError);
    assert.match(text, c.message);
    assert.equal(h.fixture.requests.length, c.requests);
  });
}

Deno.test("update_pr_comment when the comment changed meanwhile says so and how to retry", async () => {
  await using h = await connect({
    routes: [{
      method: "PUT",
      path: `${PR}/comments/310`,
      status: 409,
      fixture: "errors/comment-out-of-date.json",
    }, ...pullRequests.routes],
  });
  const { isError, text } = await call(h, "update_pr_comment", {
    ...ARGS,
    comment_id: 310,
    text: "Edited.",
  });
  assert.ok(isError);
  assert.match(text, /^Cannot update comment 310 of pull request #42 \(at version 0\): PUT /);
  assert.match(text, /409 Conflict: You are attempting to modify a comment based on out-of-date/);
  assert.match(text, /hint: someone changed it.*read it again.*retry/);
});

Deno.test("delete_pr_comment deletes at the version just read and says what was deleted", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "delete_pr_comment", DeletedPayload, { ...ARGS, comment_id: 310 });
  assert.deepEqual(seen(h), [
    { method: "GET", path: `${PR}/comments/310`, query: {} },
    { method: "DELETE", path: `${PR}/comments/310`, query: { version: "0" } },
  ]);
  assert.deepEqual(out.deleted, {
    id: 310,
    author: { name: "bwilson", displayName: "Ben Wilson" },
    text: "Keep an anchor for the old heading: links to #authentication break otherwise.",
  });
});

Deno.test("delete_pr_comment of a comment with replies says to edit it instead", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{
      method: "DELETE",
      path: `${PR}/comments/310`,
      status: 409,
      fixture: "errors/comment-has-replies.json",
    }, ...pullRequests.routes],
  });
  const { isError, text } = await call(h, "delete_pr_comment", { ...ARGS, comment_id: 310 });
  assert.ok(isError);
  assert.match(text, /^Cannot delete comment 310 of pull request #42: DELETE .*409 Conflict/);
  assert.match(text, /\(hint: a comment with replies cannot be deleted; edit its text instead\)$/);
});

Deno.test("delete_pr_comment refused by Bitbucket says which comment it could not delete", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{
      method: "DELETE",
      path: `${PR}/comments/310`,
      status: 409,
      fixture: "errors/comment-out-of-date.json",
    }, ...pullRequests.routes],
  });
  const { isError, text } = await call(h, "delete_pr_comment", { ...ARGS, comment_id: 310 });
  assert.ok(isError);
  assert.match(text, /^Cannot delete comment 310 of pull request #42: DELETE .*409 Conflict/);
});

const suggestions: {
  why: string;
  args: Record<string, unknown>;
  body: Record<string, unknown>;
}[] = [
  {
    why: "the first suggestion, with a commit message naming the comment",
    args: {},
    body: {
      commentVersion: 0,
      pullRequestVersion: 3,
      suggestionIndex: 0,
      message: "Apply suggestion from comment 309",
    },
  },
  {
    why: "a chosen suggestion with a commit message",
    args: { suggestion_index: 1, message: "Raise the minimum password length" },
    body: {
      commentVersion: 0,
      pullRequestVersion: 3,
      suggestionIndex: 1,
      message: "Raise the minimum password length",
    },
  },
];
for (const c of suggestions) {
  Deno.test(`apply_pr_suggestion commits ${c.why} and names the new head`, async () => {
    await using h = await connect({
      selection: { yolo: true },
      routes: [
        // The pull request before the suggestion is applied, then after.
        { method: "GET", path: PR, fixture: "pull_requests/pr-42.json", once: true },
        { method: "GET", path: PR, fixture: "pull_requests/pr-42-suggestion-applied.json" },
        ...pullRequests.routes,
      ],
    });
    const out = await payload(h, "apply_pr_suggestion", SuggestionPayload, {
      ...ARGS,
      comment_id: 309,
      ...c.args,
    });
    assert.deepEqual(seen(h), [
      { method: "GET", path: `${PR}/comments/309`, query: {} },
      { method: "GET", path: PR, query: {} },
      { method: "POST", path: `${PR}/comments/309/apply-suggestion`, query: {}, body: c.body },
      { method: "GET", path: PR, query: {} },
    ]);
    assert.deepEqual(out.commit, {
      id: "4f0c2d8e6a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d",
      branch: "feature/login",
      previous: "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f",
    });
  });
}

Deno.test("apply_pr_suggestion refuses an empty commit message before any write", async () => {
  await using h = await connect({ selection: { yolo: true }, routes: pullRequests.routes });
  const { isError, text } = await call(h, "apply_pr_suggestion", {
    ...ARGS,
    comment_id: 309,
    message: "  ",
  });
  assert.ok(isError);
  assert.match(text, /^Cannot apply the suggestion of comment 309: message is empty/);
  assert.deepEqual(seen(h).filter((r) => r.method !== "GET"), []);
});

Deno.test("apply_pr_suggestion refused because the comment changed says so", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [{
      method: "POST",
      path: `${PR}/comments/309/apply-suggestion`,
      status: 409,
      fixture: "errors/comment-out-of-date.json",
    }, ...pullRequests.routes],
  });
  const { isError, text } = await call(h, "apply_pr_suggestion", { ...ARGS, comment_id: 309 });
  assert.ok(isError);
  assert.match(text, /^Cannot apply the suggestion of comment 309: POST .*409 Conflict/);
  assert.equal(seen(h).length, 3, "the pull request is not read again after a refusal");
});
