/**
 * src/bitbucket/threads.ts, through the tools that read with it:
 * threads paged by thread, each page reading the activity stream from its
 * start so that a deletion on an earlier page of the stream still hides its
 * thread; and listings filtered again here, with a nextPageStart just after
 * the last item kept, for servers that ignore the filter they are sent.
 */
import assert from "node:assert/strict";
import { PR, pullRequests } from "../../testing/cases/pull_requests.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";
import { connect } from "../../testing/harness.ts";
import { ARGS, CommentsPayload, payload, seen, TasksPayload } from "../support/pr_calls.ts";

const pages: { start?: number; ids: number[]; next?: number }[] = [
  { ids: [309, 301], next: 2 },
  { start: 2, ids: [300, 298], next: 4 },
  { start: 4, ids: [297, 296] },
];
for (const c of pages) {
  Deno.test(`list_pr_comments pages by thread: from ${c.start ?? 0}, two at a time`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const out = await payload(h, "list_pr_comments", CommentsPayload, {
      ...ARGS,
      limit: 2,
      start: c.start,
    });
    assert.deepEqual(out.comments.map((t) => t.id), c.ids);
    assert.equal(out.isLastPage, c.next === undefined);
    assert.equal(out.nextPageStart, c.next);
    // Every page reads the stream from its start, where the deletions are.
    assert.equal(seen(h)[0]?.query.start, "0");
  });
}

/** The recorded stream served three activities a page, whatever the limit asked. */
function streamByThrees(): Route {
  const stream = JSON.parse(Deno.readTextFileSync("fixtures/pull_requests/activities.json"));
  return {
    method: "GET",
    path: `${PR}/activities`,
    respond: ({ query }) => {
      const start = Number(query.start ?? 0);
      const values = stream.values.slice(start, start + 3);
      const last = start + 3 >= stream.values.length;
      return {
        start,
        limit: 3,
        size: values.length,
        values,
        isLastPage: last,
        ...(last ? {} : { nextPageStart: start + 3 }),
      };
    },
  };
}

Deno.test("list_pr_comments keeps a comment deleted on one page of the stream deleted on the next", async () => {
  await using h = await connect({ routes: [streamByThrees(), ...pullRequests.routes] });
  // The DELETED activity of 295 is on the stream's second page; its ADDED on the last.
  const first = await payload(h, "list_pr_comments", CommentsPayload, { ...ARGS, limit: 4 });
  assert.deepEqual(first.comments.map((c) => c.id), [309, 301, 300, 298]);
  const rest = await payload(h, "list_pr_comments", CommentsPayload, {
    ...ARGS,
    limit: 4,
    start: first.nextPageStart,
  });
  assert.deepEqual(rest.comments.map((c) => c.id), [297, 296]);
  assert.equal(rest.isLastPage, true);
  assert.deepEqual(
    seen(h).map((r) => r.query.start),
    ["0", "3", "6", "9", "0", "3", "6", "9", "12"],
    "each call read the stream from its start, three at a time, as far as it needed",
  );
});

Deno.test("list_pr_comments with path filters again, for a server that ignores state", async () => {
  await using h = await connect({
    routes: [
      // This server answers with every comment on the file, whatever state was asked.
      { method: "GET", path: `${PR}/comments`, fixture: "pull_requests/comments-form-ts.json" },
    ],
  });
  const out = await payload(h, "list_pr_comments", CommentsPayload, {
    ...ARGS,
    path: "src/login/form.ts",
    state: "resolved",
  });
  assert.deepEqual(out.comments, []);
  assert.equal(seen(h)[0]?.query.state, "RESOLVED");
});

/** A server that ignores `state` on the tasks resource: every task, whatever was asked. */
const IGNORES_STATE: Route = {
  method: "GET",
  path: `${PR}/blocker-comments`,
  fixture: "pull_requests/tasks.json",
};

for (const state of ["OPEN", "RESOLVED"]) {
  Deno.test(`list_pr_tasks filters ${state} tasks again, for a server that ignores state`, async () => {
    await using h = await connect({ routes: [IGNORES_STATE] });
    const out = await payload(h, "list_pr_tasks", TasksPayload, { ...ARGS, state });
    assert.deepEqual(out.tasks.map((t) => t.state), [state]);
    assert.equal(out.isLastPage, true);
  });
}

Deno.test("list_pr_tasks stopped within a page resumes just after the last task given", async () => {
  await using h = await connect({ routes: [IGNORES_STATE] });
  const out = await payload(h, "list_pr_tasks", TasksPayload, { ...ARGS, state: "all", limit: 1 });
  assert.deepEqual(out.tasks.map((t) => t.id), [301]);
  assert.equal(out.isLastPage, false);
  assert.equal(out.nextPageStart, 1);
});
