/**
 * src/tools/pull_requests/reviewers.ts: the default reviewers of a new pull
 * request, asked for with the repository's id and both refs, read as servers
 * send them (the users) and as the spec documents them (conditions holding them).
 */
import assert from "node:assert/strict";
import {
  DEFAULT_REVIEWERS,
  defaultReviewersQuery,
  pullRequests,
  REPO,
  WEB,
} from "../../../testing/cases/pull_requests.ts";
import { connect } from "../../../testing/harness.ts";
import { call, payload, ReviewersPayload, seen } from "../../support/pr_calls.ts";

const ASK = { project: "PROJ", repo: "web", from_ref: "feature/login", to_ref: "refs/heads/main" };
const FOUND = [
  { name: "asmith", displayName: "Alex Smith" },
  { name: "c.davis@example.com", displayName: "Carol Davis" },
];

Deno.test("get_default_reviewers asks with the repository's id and both refs, qualified", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const out = await payload(h, "get_default_reviewers", ReviewersPayload, ASK);
  assert.deepEqual(seen(h), [
    { method: "GET", path: REPO, query: {} },
    {
      method: "GET",
      path: DEFAULT_REVIEWERS,
      query: defaultReviewersQuery("refs/heads/feature/login"),
    },
  ]);
  assert.deepEqual(out.reviewers, FOUND);
});

Deno.test("get_default_reviewers reads the conditions the 9.4 spec documents, each user once", async () => {
  const users = JSON.parse(Deno.readTextFileSync("fixtures/pull_requests/default-reviewers.json"));
  await using h = await connect({
    routes: [{
      method: "GET",
      path: DEFAULT_REVIEWERS,
      body: [
        { id: 1, requiredApprovals: 1, reviewers: users },
        { id: 2, requiredApprovals: 0, reviewers: [users[1]] },
      ],
    }, ...pullRequests.routes],
  });
  const out = await payload(h, "get_default_reviewers", ReviewersPayload, ASK);
  assert.deepEqual(out.reviewers, FOUND);
});

Deno.test("get_default_reviewers of a repository Bitbucket sends without its id says so", async () => {
  await using h = await connect({
    routes: [{ method: "GET", path: REPO, body: WEB }],
  });
  const { isError, text } = await call(h, "get_default_reviewers", ASK);
  assert.ok(isError);
  assert.match(text, /Cannot find the default reviewers of PROJ\/web: .*without its id/);
  assert.equal(h.fixture.requests.length, 1);
});

Deno.test("get_default_reviewers of an unknown repository names what it was doing", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: REPO,
      status: 404,
      fixture: "errors/repository-not-found.json",
    }],
  });
  const { isError, text } = await call(h, "get_default_reviewers", ASK);
  assert.ok(isError);
  assert.match(text, /^Cannot find the default reviewers of PROJ\/web: GET .* 404 Not Found/);
});
