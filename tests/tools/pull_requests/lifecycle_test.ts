/**
 * The pull request writes of src/tools/pull_requests/lifecycle.ts: create (with
 * the default reviewers or without), update, merge, decline, reopen and
 * auto-merge, each at the version it read or was given; and which pull
 * request writes a default server withholds.
 */
import assert from "node:assert/strict";
import {
  DEFAULT_REVIEWERS,
  defaultReviewersQuery,
  PR,
  pullRequests,
  REPO,
  WEB,
} from "../../../testing/cases/pull_requests.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import {
  ARGS,
  AutoMergePayload,
  call,
  CreatedPayload,
  payload,
  PullRequestPayload,
  seen,
} from "../../support/pr_calls.ts";

/** A repository answer for a token that belongs to asmith. */
const AS_ASMITH = { "X-AUSERNAME": "asmith" };

/** What every create_pull_request call below opens: the sign-up branch, by its title. */
const SIGN_UP = { project: "PROJ", repo: "web", from_ref: "feature/signup", title: "Sign-up page" };

const UNSAFE = [
  "submit_pr_review",
  "discard_pr_review",
  "delete_pr_comment",
  "apply_pr_suggestion",
  "merge_pull_request",
  "decline_pull_request",
  "enable_auto_merge",
];
const SAFE_WRITES = [
  "create_pull_request",
  "update_pull_request",
  "reopen_pull_request",
  "add_pr_comment",
  "update_pr_comment",
  "disable_auto_merge",
];

Deno.test("create_pull_request without default reviewers targets the given branch and asks nothing first", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "create_pull_request", CreatedPayload, {
    ...SIGN_UP,
    to_ref: "release/2.0",
    draft: true,
    default_reviewers: false,
  });
  assert.deepEqual(seen(h), [{
    method: "POST",
    path: `${REPO}/pull-requests`,
    query: {},
    body: {
      title: "Sign-up page",
      draft: true,
      fromRef: { id: "refs/heads/feature/signup", repository: WEB },
      toRef: { id: "refs/heads/release/2.0", repository: WEB },
    },
  }]);
  assert.equal(out.pullRequest.id, 44);
  assert.equal(out.pullRequest.version, 0);
  assert.deepEqual(out.defaultReviewersAdded, []);
});

Deno.test("create_pull_request adds the default reviewers for its refs and says which", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "create_pull_request", CreatedPayload, {
    ...SIGN_UP,
    to_ref: "main",
  });
  assert.deepEqual(seen(h), [
    { method: "GET", path: REPO, query: {} },
    {
      method: "GET",
      path: DEFAULT_REVIEWERS,
      query: defaultReviewersQuery("refs/heads/feature/signup"),
    },
    {
      method: "POST",
      path: `${REPO}/pull-requests`,
      query: {},
      body: {
        title: "Sign-up page",
        fromRef: { id: "refs/heads/feature/signup", repository: WEB },
        toRef: { id: "refs/heads/main", repository: WEB },
        reviewers: [{ user: { name: "asmith" } }, { user: { name: "c.davis@example.com" } }],
      },
    },
  ]);
  assert.deepEqual(out.defaultReviewersAdded, ["asmith", "c.davis@example.com"]);
});

Deno.test("create_pull_request never adds its author, nor a reviewer already asked for, as a default reviewer", async () => {
  await using h = await connect({
    routes: [
      // The token belongs to asmith, one of the default reviewers.
      { method: "GET", path: REPO, fixture: "repositories/repo-web.json", headers: AS_ASMITH },
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "create_pull_request", CreatedPayload, {
    ...SIGN_UP,
    to_ref: "main",
    reviewers: ["C.Davis@example.com"],
  });
  assert.deepEqual(seen(h).at(-1)?.body, {
    title: "Sign-up page",
    fromRef: { id: "refs/heads/feature/signup", repository: WEB },
    toRef: { id: "refs/heads/main", repository: WEB },
    reviewers: [{ user: { name: "C.Davis@example.com" } }],
  });
  assert.deepEqual(out.defaultReviewersAdded, []);
});

Deno.test("create_pull_request with no default reviewers sends none", async () => {
  await using h = await connect({
    routes: [{ method: "GET", path: DEFAULT_REVIEWERS, body: [] }, ...pullRequests.routes],
  });
  const out = await payload(h, "create_pull_request", CreatedPayload, SIGN_UP);
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [
    `GET ${REPO}/default-branch`,
    `GET ${REPO}`,
    `GET ${DEFAULT_REVIEWERS}`,
    `POST ${REPO}/pull-requests`,
  ]);
  assert.equal((seen(h).at(-1)?.body as Record<string, unknown>).reviewers, undefined);
  assert.deepEqual(out.defaultReviewersAdded, []);
});

const PR42_BODY = {
  version: 3,
  title: "Validate the login form before submitting",
  description:
    "Checks the username and password fields before the form is sent.\n\n- rejects an empty password\n- moves the auth docs to docs/login.md",
  reviewers: [{ user: { name: "asmith" } }, { user: { name: "bwilson" } }],
  toRef: { id: "refs/heads/main", repository: WEB },
  draft: false,
};
const updates: { why: string; args: Record<string, unknown>; body: Record<string, unknown> }[] = [
  {
    why: "a new reviewer list replaces the old one (adding one asks nobody)",
    args: { reviewers: ["bwilson", "asmith", "c.davis@example.com"] },
    body: {
      ...PR42_BODY,
      reviewers: [
        { user: { name: "bwilson" } },
        { user: { name: "asmith" } },
        { user: { name: "c.davis@example.com" } },
      ],
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
    await using h = await connect({ routes: pullRequests.routes });
    const out = await payload(h, "update_pull_request", PullRequestPayload, { ...ARGS, ...c.args });
    const read = { method: "GET", path: PR, query: {} };
    // A new reviewer list is first checked for a reviewer with a verdict dropped (none here).
    const checked = c.args.reviewers === undefined ? [] : [read];
    assert.deepEqual(seen(h), [
      ...checked,
      read,
      { method: "PUT", path: PR, query: {}, body: c.body },
    ]);
    assert.equal(out.pullRequest.version, 4);
  });
}

for (const answer of ["accept", "decline"] as const) {
  Deno.test(`update_pull_request removing a reviewer with a verdict asks first (${answer})`, async () => {
    const asked: string[] = [];
    await using h = await connect({
      routes: pullRequests.routes,
      elicit: (request) => {
        asked.push((request.params as { message: string }).message);
        return answer === "accept"
          ? { action: "accept", content: { confirm: true } }
          : { action: "decline" };
      },
    });
    const result = await call(h, "update_pull_request", { ...ARGS, reviewers: ["asmith"] });
    assert.deepEqual(asked, [
      `Remove "bwilson" (NEEDS_WORK) from the reviewers of pull request #42 "Validate the login form before submitting" in PROJ/web (version 3), dropping their verdict from its merge checks`,
    ]);
    const puts = seen(h).filter((r) => r.method === "PUT");
    if (answer === "decline") {
      assert.ok(result.isError);
      assert.deepEqual(puts, []);
    } else {
      assert.ok(!result.isError, result.text);
      assert.deepEqual(puts.map((r) => r.body), [{
        ...PR42_BODY,
        reviewers: [{ user: { name: "asmith" } }],
      }]);
    }
  });
}

/** The 409 of a reviewer Bitbucket no longer accepts, and the name it refuses. */
const INVALID_REVIEWERS = JSON.parse(readFixture("errors/invalid-reviewers.json"));
const REFUSED: string = INVALID_REVIEWERS.errors[0].reviewerErrors[0].context;

Deno.test("update_pull_request: a title edit is not stopped by a reviewer Bitbucket no longer accepts", async () => {
  await using h = await connect({
    routes: [
      { method: "GET", path: PR, fixture: "pull_requests/pr-42-stale-reviewer.json" },
      { method: "PUT", path: PR, status: 409, body: INVALID_REVIEWERS, once: true },
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "update_pull_request", PullRequestPayload, {
    ...ARGS,
    title: "Validate the login form",
  });
  const sent = seen(h).filter((r) => r.method === "PUT").map((r) =>
    (r.body as { reviewers: { user: { name: string } }[] }).reviewers.map((x) => x.user.name)
  );
  assert.deepEqual(sent, [["asmith", "bwilson", REFUSED], ["asmith", "bwilson"]]);
  assert.deepEqual(out.reviewersDropped, [REFUSED]);
  assert.equal(out.pullRequest.version, 4);
});

Deno.test("update_pull_request naming a reviewer Bitbucket refuses says who, and sends it once", async () => {
  await using h = await connect({
    routes: [
      { method: "PUT", path: PR, status: 409, body: INVALID_REVIEWERS },
      ...pullRequests.routes,
    ],
  });
  const { isError, text } = await call(h, "update_pull_request", {
    ...ARGS,
    reviewers: ["asmith", "bwilson", REFUSED],
  });
  assert.ok(isError);
  assert.match(text, /^Cannot update pull request #42: PUT .* 409 Conflict/);
  assert.ok(text.includes(`reviewers refused: "${REFUSED}" (${REFUSED} is not a user.)`), text);
  assert.match(text, /hint: leave the refused reviewers out of reviewers and retry/);
  assert.equal(seen(h).filter((r) => r.method === "PUT").length, 1);
});

Deno.test("update_pull_request keeps a refused reviewer who gave a verdict: it fails rather than drop it", async () => {
  const refusingApprover = structuredClone(INVALID_REVIEWERS);
  refusingApprover.errors[0].reviewerErrors[0] = {
    context: "asmith",
    message: "asmith does not have permission to view the repository.",
  };
  await using h = await connect({
    routes: [
      { method: "PUT", path: PR, status: 409, body: refusingApprover },
      ...pullRequests.routes,
    ],
  });
  const { isError, text } = await call(h, "update_pull_request", { ...ARGS, title: "Validate" });
  assert.ok(isError);
  assert.ok(text.includes(`reviewers refused: "asmith"`), text);
  assert.equal(seen(h).filter((r) => r.method === "PUT").length, 1);
});

Deno.test("update_pull_request with nothing to change makes no request", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const { isError, text } = await call(h, "update_pull_request", ARGS);
  assert.ok(isError);
  assert.match(text, /Cannot update pull request #42: nothing to change/);
  assert.equal(h.fixture.requests.length, 0);
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
    await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
    const out = await payload(h, "merge_pull_request", PullRequestPayload, { ...ARGS, ...c.args });
    assert.deepEqual(
      seen(h).map(({ method, query, body }) => ({ method, query, body })),
      c.requests.map((r) => ({ ...r, body: r.body })),
    );
    assert.equal(out.pullRequest.state, "MERGED");
    assert.equal(out.pullRequest.version, 4);
  });
}

Deno.test("merge_pull_request refuses an unknown strategy with the permitted ones", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
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
    }, ...pullRequests.routes],
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
    }, ...pullRequests.routes],
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
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "decline_pull_request", PullRequestPayload, {
    ...ARGS,
    comment: "Superseded.",
  });
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

Deno.test("reopen_pull_request reopens a declined pull request at the version just read", async () => {
  await using h = await connect({
    routes: [
      { method: "GET", path: PR, fixture: "pull_requests/pr-42-declined.json" },
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "reopen_pull_request", PullRequestPayload, ARGS);
  assert.deepEqual(seen(h), [
    { method: "GET", path: PR, query: {} },
    { method: "POST", path: `${PR}/reopen`, query: { version: "4" }, body: { version: 4 } },
  ]);
  assert.equal(out.pullRequest.state, "OPEN");
  assert.equal(out.pullRequest.version, 5);
});

Deno.test("reopen_pull_request at a given version asks nothing first", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  await payload(h, "reopen_pull_request", PullRequestPayload, { ...ARGS, version: 4 });
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [`POST ${PR}/reopen`]);
});

Deno.test("enable_auto_merge reports pending when the pull request stays open", async () => {
  await using h = await connect({
    selection: { yolo: true },
    routes: [
      { method: "POST", path: `${PR}/merge`, fixture: "pull_requests/pr-42.json" },
      ...pullRequests.routes,
    ],
  });
  const out = await payload(h, "enable_auto_merge", AutoMergePayload, ARGS);
  assert.deepEqual(out.autoMerge, { pullRequestId: 42, status: "pending" });
  assert.deepEqual(seen(h)[1]?.body, { version: 3, autoMerge: true });
});

Deno.test("enable_auto_merge reports merged when Bitbucket could merge at once", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  const out = await payload(h, "enable_auto_merge", AutoMergePayload, {
    ...ARGS,
    strategy: "rebase no ff",
  });
  assert.deepEqual(out.autoMerge, { pullRequestId: 42, status: "merged" });
  assert.deepEqual(seen(h)[1]?.body, { version: 3, autoMerge: true, strategyId: "rebase-no-ff" });
});

Deno.test("disable_auto_merge cancels the pending auto-merge", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "disable_auto_merge", AutoMergePayload, ARGS);
  assert.deepEqual(out.autoMerge, { pullRequestId: 42, status: "cancelled" });
  assert.deepEqual(seen(h).map((r) => `${r.method} ${r.path}`), [`DELETE ${PR}/auto-merge`]);
});

// --- exposure --------------------------------------------------------------

Deno.test("with --withhold-unsafe the unsafe pull request tools are withheld and the safe writes offered", async () => {
  await using h = await connect({
    routes: pullRequests.routes,
    selection: { withholdUnsafe: true },
  });
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

Deno.test("by default the unsafe pull request tools are offered as destructive", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const { tools } = await h.client.listTools();
  for (const name of UNSAFE) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `${name} is offered`);
    assert.equal(tool.annotations?.destructiveHint, true, name);
  }
});

Deno.test("a withheld pull request tool cannot be called, and nothing reaches Bitbucket", async () => {
  await using h = await connect({
    routes: pullRequests.routes,
    selection: { withholdUnsafe: true },
  });
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: ARGS }).catch(
    (error) => ({ isError: true, content: [{ type: "text", text: String(error) }] }),
  );
  assert.equal(result.isError, true);
  assert.match(firstText(result), /merge_pull_request.*not found/);
  assert.equal(h.fixture.requests.length, 0);
});
