import assert from "node:assert/strict";
import { commits } from "./cases/commits.ts";
import { connect, firstText } from "./support/harness.ts";

Deno.test("compare_refs asks Bitbucket for commits on `to` not on `from` (its own names reversed)", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "compare_refs",
    arguments: { project: "PROJ", repo: "web", from: "main", to: "feature/login" },
  });
  const out = result.structuredContent as { commits: { message: string }[] };
  assert.deepEqual(out.commits.map((c) => c.message), [
    "Add the login form",
    "Validate passwords on the client",
  ]);
  const query = h.fixture.requests[0]?.query;
  assert.equal(query?.from, "feature/login", "Bitbucket's from is our tip");
  assert.equal(query?.to, "main", "Bitbucket's to is our base");
});

Deno.test("get_commit returns the commit with its parents", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "get_commit",
    arguments: {
      project: "PROJ",
      repo: "web",
      commit_id: "8d51122def5632836d1cb1026e879069e10a1e13",
    },
  });
  const { commit } = result.structuredContent as {
    commit: { parents: { id: string }[]; author: { name: string } };
  };
  assert.equal(commit.parents.length, 2);
  assert.equal(commit.author.name, "Bitbucket");
});

Deno.test("get_commit refuses a non-hex id before any request", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "get_commit",
    arguments: { project: "PROJ", repo: "web", commit_id: "../../admin" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /commit_id/);
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("get_commit of an unknown commit carries Bitbucket's message", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "get_commit",
    arguments: { project: "PROJ", repo: "web", commit_id: "deadbeef" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /404/);
  assert.match(firstText(result), /Commit 'deadbeef' does not exist/);
});

Deno.test("list_commits passes until, since and path through", async () => {
  await using h = await connect({ routes: commits.routes });
  await h.client.callTool({
    name: "list_commits",
    arguments: {
      project: "PROJ",
      repo: "web",
      until: "main",
      since: "v1.0.0",
      path: "src",
      limit: 3,
    },
  });
  const query = h.fixture.requests[0]?.query;
  assert.deepEqual(query, { until: "main", since: "v1.0.0", path: "src", start: "0", limit: "3" });
});
