import assert from "node:assert/strict";
import { projects } from "../../../testing/cases/projects.ts";
import { connect } from "../../../testing/harness.ts";

Deno.test("list_projects gives each project's key, name and description, without links", async () => {
  await using h = await connect({ routes: projects.routes });
  const result = await h.client.callTool({ name: "list_projects", arguments: { limit: 2 } });
  assert.deepEqual(result.structuredContent, {
    projects: [
      {
        key: "PROJ",
        id: 1,
        name: "Project",
        description: "The main project",
        public: false,
        type: "NORMAL",
      },
      {
        key: "OPS",
        id: 4,
        name: "Operations",
        description: "Deployment pipelines and infrastructure code",
        public: true,
        type: "NORMAL",
      },
    ],
    isLastPage: false,
    nextPageStart: 2,
  });
});

Deno.test("list_projects passes the name filter to Bitbucket and walks pages up to limit", async () => {
  await using h = await connect({ routes: projects.routes });
  const result = await h.client.callTool({
    name: "list_projects",
    arguments: { name: "o", limit: 10 },
  });
  const out = result.structuredContent as { projects: { key: string }[]; isLastPage: boolean };
  assert.deepEqual(out.projects.map((p) => p.key), ["PROJ", "OPS", "PLAT"]);
  assert.equal(out.isLastPage, true);
  assert.deepEqual(h.fixture.requests.map((r) => r.query), [
    { name: "o", start: "0", limit: "10" },
    { name: "o", start: "2", limit: "8" },
  ]);
});

Deno.test("list_projects without a name sends no name filter", async () => {
  await using h = await connect({ routes: projects.routes });
  await h.client.callTool({ name: "list_projects", arguments: { start: 2 } });
  assert.deepEqual(h.fixture.requests[0]?.query, { start: "2", limit: "25" });
});
