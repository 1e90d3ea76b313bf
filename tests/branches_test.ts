import assert from "node:assert/strict";
import { connect, firstText } from "./support/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";

Deno.test("create_branch creates the branch at the start point and returns it", async () => {
  await using h = await connect();
  const result = await h.client.callTool({
    name: "create_branch",
    arguments: { project: "PROJ", repo: "web", name: "feature/search", start_point: "v1.0.0" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    branch: {
      id: "refs/heads/feature/search",
      displayId: "feature/search",
      latestCommit: "8d51122def5632836d1cb1026e879069e10a1e13",
    },
  });
  const [request] = h.fixture.requests;
  assert.equal(request?.path, `${REPO}/branches`);
  assert.deepEqual(request?.body, { name: "feature/search", startPoint: "v1.0.0" });
  assert.equal(request?.headers["x-atlassian-token"], "no-check");
});

Deno.test("create_branch of an existing name reports Bitbucket's conflict", async () => {
  await using h = await connect({
    routes: [{
      method: "POST",
      path: `${REPO}/branches`,
      status: 409,
      fixture: "errors/branch-exists.json",
    }],
  });
  const result = await h.client.callTool({
    name: "create_branch",
    arguments: { project: "PROJ", repo: "web", name: "feature/search", start_point: "main" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /409/);
  assert.match(firstText(result), /Branch 'feature\/search' already exists/);
});

Deno.test("create_branch is a safe write: exposed by default, withheld in read-only mode", async () => {
  {
    await using h = await connect();
    const tools = (await h.client.listTools()).tools;
    const tool = tools.find((t) => t.name === "create_branch");
    assert.ok(tool, "exposed without --yolo");
    assert.equal(tool.annotations?.destructiveHint, false);
    assert.equal(tool.annotations?.readOnlyHint, false);
  }
  {
    await using h = await connect({ selection: { readOnly: true } });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes("create_branch"));
  }
});
