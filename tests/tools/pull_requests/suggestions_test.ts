import assert from "node:assert/strict";
import { pullRequests } from "../../../testing/cases/pull_requests.ts";
import { connect } from "../../../testing/harness.ts";

Deno.test("list_pull_request_suggestions gives each pushed branch, its repository and when it changed", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const result = await h.client.callTool({
    name: "list_pull_request_suggestions",
    arguments: {},
  });
  assert.equal(result.isError, undefined);
  const { suggestions } = result.structuredContent as {
    suggestions: {
      ref: { id: string; displayId?: string };
      repository: string;
      changedDate: string;
    }[];
  };
  assert.deepEqual(suggestions.map((s) => [s.ref, s.repository, s.changedDate]), [
    [
      { id: "refs/heads/feature/signup", displayId: "feature/signup" },
      "PROJ/web",
      "2024-11-30T09:46:40Z",
    ],
    [
      { id: "refs/heads/fix/timeout", displayId: "fix/timeout" },
      "PROJ/api",
      "2024-11-30T07:00:00Z",
    ],
  ]);
  assert.deepEqual(h.fixture.requests[0]?.query, { limit: "25" });
});

Deno.test("list_pull_request_suggestions reads the time under the spec's spelling too, and keeps to limit", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: "/api/latest/dashboard/pull-request-suggestions",
      body: {
        isLastPage: true,
        values: [1, 2].map((n) => ({
          changeTme: 1732960000000,
          refChange: {
            refId: `refs/heads/topic-${n}`,
            toHash: "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d",
          },
          repository: { slug: "web", project: { key: "PROJ" } },
        })),
      },
    }],
  });
  const result = await h.client.callTool({
    name: "list_pull_request_suggestions",
    arguments: { limit: 1, changes_since: 3600 },
  });
  const { suggestions } = result.structuredContent as {
    suggestions: { ref: { id: string }; changedDate: string }[];
  };
  assert.deepEqual(suggestions.map((s) => [s.ref.id, s.changedDate]), [
    ["refs/heads/topic-1", "2024-11-30T09:46:40Z"],
  ]);
  assert.deepEqual(h.fixture.requests[0]?.query, { changesSince: "3600", limit: "1" });
});
