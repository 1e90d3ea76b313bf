/**
 * The review tools of src/tools/pull_requests/review.ts: the verdict, with the
 * caller's pending comments and a summary published through the review
 * resource, or the status alone when there is nothing to publish; the drafts
 * listed; and the drafts discarded.
 */
import assert from "node:assert/strict";
import { CALLER, PR, pullRequests } from "../../../testing/cases/pull_requests.ts";
import { readFixture, type Route } from "../../../testing/fixture_bitbucket.ts";
import { MAX_PENDING } from "../../../src/tools/pull_requests/review.ts";
import { connect } from "../../../testing/harness.ts";
import {
  ARGS,
  call,
  CommentsPayload,
  DiscardedPayload,
  ParticipantPayload,
  payload,
  seen,
} from "../../support/pr_calls.ts";

/** The caller has no pending comments. */
const NO_DRAFTS: Route = {
  method: "GET",
  path: `${PR}/review`,
  fixture: "pull_requests/review-empty.json",
};

const REVIEW_PAGE = { start: "0", limit: "1000" };

const verdicts: { action: string; status: string }[] = [
  { action: "approve", status: "APPROVED" },
  { action: "UNAPPROVE", status: "UNAPPROVED" },
  { action: "needs_work", status: "NEEDS_WORK" },
  { action: "Needs-Work", status: "NEEDS_WORK" },
];
for (const c of verdicts) {
  Deno.test(`submit_pr_review ${c.action} with nothing to publish sets ${c.status} on the participant`, async () => {
    await using h = await connect({
      routes: [NO_DRAFTS, ...pullRequests.routes],
      selection: { yolo: true },
    });
    const out = await payload(h, "submit_pr_review", ParticipantPayload, {
      ...ARGS,
      action: c.action,
    });
    assert.deepEqual(seen(h), [
      { method: "GET", path: `${PR}/review`, query: REVIEW_PAGE },
      { method: "GET", path: PR, query: {} },
      {
        method: "PUT",
        path: `${PR}/participants/${CALLER}`,
        query: {},
        body: { status: c.status },
      },
    ]);
    assert.deepEqual(out.published, []);
    assert.equal(out.participant.name, CALLER);
  });
}

Deno.test("submit_pr_review publishes the pending comments and a summary with the verdict", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "submit_pr_review", ParticipantPayload, {
    ...ARGS,
    action: "needs_work",
    comment: "Two things before this goes in.",
  });
  assert.deepEqual(seen(h), [
    { method: "GET", path: `${PR}/review`, query: REVIEW_PAGE },
    {
      method: "PUT",
      path: `${PR}/review`,
      query: {},
      body: { participantStatus: "NEEDS_WORK", commentText: "Two things before this goes in." },
    },
  ]);
  assert.deepEqual(out.published, [310, 311]);
  assert.deepEqual(out.participant, {
    name: CALLER,
    displayName: "Ben Wilson",
    role: "REVIEWER",
    status: "NEEDS_WORK",
    lastReviewedCommit: "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f",
  });
});

Deno.test("submit_pr_review publishes the drafts without a summary when none is given", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  await payload(h, "submit_pr_review", ParticipantPayload, { ...ARGS, action: "approve" });
  assert.deepEqual(seen(h)[1]?.body, { participantStatus: "APPROVED" });
});

Deno.test("submit_pr_review with a summary and no drafts still completes the review", async () => {
  await using h = await connect({
    routes: [NO_DRAFTS, ...pullRequests.routes],
    selection: { yolo: true },
  });
  const out = await payload(h, "submit_pr_review", ParticipantPayload, {
    ...ARGS,
    action: "approve",
    comment: "Looks good.",
  });
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [
    `GET ${PR}/review`,
    `PUT ${PR}/review`,
  ]);
  assert.deepEqual(out.published, []);
});

Deno.test("submit_pr_review names the caller when the review answer is not a participant", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [
      { method: "PUT", path: `${PR}/review`, body: {}, headers: { "X-AUSERNAME": CALLER } },
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "submit_pr_review", ParticipantPayload, {
    ...ARGS,
    action: "needs_work",
  });
  assert.deepEqual(out.participant, { name: CALLER, status: "NEEDS_WORK" });
});

Deno.test("submit_pr_review finds the slug of a caller who is not on the pull request yet", async () => {
  const caller = "c.davis@example.com";
  await using h = await connect({
    selection: { yolo: true },
    routes: [
      NO_DRAFTS,
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
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "submit_pr_review", ParticipantPayload, {
    ...ARGS,
    action: "needs_work",
  });
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [
    `GET ${PR}/review`,
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
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const { isError, text } = await call(h, "submit_pr_review", { ...ARGS, action: "reject" });
  assert.ok(isError);
  assert.match(text, /action: must be one of APPROVE, UNAPPROVE, NEEDS_WORK \(any case\)/);
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("submit_pr_review does not review when Bitbucket names no user", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [
      NO_DRAFTS,
      { method: "GET", path: PR, fixture: "pull_requests/pr-42.json" },
      ...pullRequests.routes,
    ],
  });
  const { isError, text } = await call(h, "submit_pr_review", { ...ARGS, action: "approve" });
  assert.ok(isError);
  assert.match(text, /Cannot tell which user the token belongs to/);
  assert.deepEqual(seen(h).map((r) => r.method), ["GET", "GET"]);
});

Deno.test("get_pr_review lists the caller's drafts with their anchors", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "get_pr_review", CommentsPayload, ARGS);
  assert.deepEqual(seen(h), [{
    method: "GET",
    path: `${PR}/review`,
    query: { start: "0", limit: "25" },
  }]);
  assert.deepEqual(out.comments.map((c) => [c.id, c.state, c.anchor?.path]), [
    [310, "PENDING", "docs/login.md"],
    [311, "PENDING", "src/login/validate.ts"],
  ]);
  assert.equal(out.isLastPage, true);
});

Deno.test("discard_pr_review deletes the drafts and names them", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "discard_pr_review", DiscardedPayload, ARGS);
  assert.deepEqual(seen(h), [
    { method: "GET", path: `${PR}/review`, query: REVIEW_PAGE },
    { method: "DELETE", path: `${PR}/review`, query: {} },
  ]);
  assert.deepEqual(out.discarded, { pullRequestId: 42, comments: [310, 311] });
});

Deno.test("discard_pr_review with no drafts discards nothing and says so", async () => {
  await using h = await connect({
    routes: [NO_DRAFTS, ...pullRequests.routes],
    selection: { yolo: true },
  });
  const out = await payload(h, "discard_pr_review", DiscardedPayload, ARGS);
  assert.deepEqual(out.discarded.comments, []);
});

/** The caller's review holding `count` pending comments (ids from 1000), paged as Bitbucket pages. */
function manyDrafts(count: number): Route {
  const recorded = JSON.parse(readFixture("pull_requests/review.json"));
  const template = recorded.values[0];
  return {
    method: "GET",
    path: `${PR}/review`,
    respond: (r) => {
      const start = Number(r.query.start ?? 0);
      const limit = Number(r.query.limit ?? 25);
      const end = Math.min(count, start + limit);
      const values = Array.from({ length: end - start }, (_, i) => ({
        ...template,
        id: 1000 + start + i,
      }));
      const isLastPage = end >= count;
      return { values, size: values.length, start, limit, isLastPage, nextPageStart: end };
    },
  };
}

Deno.test("discard_pr_review names every draft it deletes, past the first page too", async () => {
  await using h = await connect({
    routes: [manyDrafts(2500), ...pullRequests.routes],
    selection: { yolo: true },
  });
  const out = await payload(h, "discard_pr_review", DiscardedPayload, ARGS);
  assert.equal(out.discarded.comments.length, 2500);
  assert.equal(out.discarded.comments.at(-1), 3499);
  assert.equal("commentsComplete" in out.discarded, false);
});

Deno.test("discard_pr_review past its bound asks for more drafts than it lists, and says so after", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: [manyDrafts(MAX_PENDING + 5), ...pullRequests.routes],
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { confirm: true } };
    },
  });
  const out = await payload(h, "discard_pr_review", DiscardedPayload, ARGS);
  assert.deepEqual(asked, [
    `Delete your more than ${MAX_PENDING} pending (unpublished) comments on pull request #42 in PROJ/web; they cannot be recovered`,
  ]);
  assert.equal(out.discarded.comments.length, MAX_PENDING);
  assert.equal(out.discarded.commentsComplete, false);
  assert.deepEqual(seen(h).at(-1), { method: "DELETE", path: `${PR}/review`, query: {} });
});

Deno.test("submit_pr_review past its bound publishes more drafts than it lists, and says so", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: [manyDrafts(MAX_PENDING + 5), ...pullRequests.routes],
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { confirm: true } };
    },
  });
  const out = await payload(h, "submit_pr_review", ParticipantPayload, {
    ...ARGS,
    action: "APPROVE",
  });
  assert.match(asked[0] ?? "", new RegExp(`publishing your more than ${MAX_PENDING} pending`));
  assert.equal(out.published.length, MAX_PENDING);
  assert.equal(out.publishedComplete, false);
});
