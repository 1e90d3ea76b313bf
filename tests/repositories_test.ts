import assert from "node:assert/strict";
import { repositories as repositoryCases } from "./cases/repositories.ts";
import { connect, firstText } from "./support/harness.ts";

Deno.test("get_repository_clone_info gives the HTTPS and SSH clone URLs", async () => {
  await using h = await connect({ routes: repositoryCases.routes });
  const result = await h.client.callTool({
    name: "get_repository_clone_info",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.deepEqual(result.structuredContent, {
    cloneUrls: {
      https: "https://bitbucket.example.com/scm/proj/web.git",
      ssh: "ssh://git@bitbucket.example.com:7999/proj/web.git",
    },
  });
});

Deno.test("search_repositories lists repositories without their links", async () => {
  await using h = await connect({ routes: repositoryCases.routes });
  const result = await h.client.callTool({
    name: "search_repositories",
    arguments: { name: "web" },
  });
  const { repositories } = result.structuredContent as {
    repositories: Record<string, unknown>[];
  };
  assert.deepEqual(repositories.map((r) => r.slug), ["web", "web-api"]);
  assert.ok(repositories.every((r) => !("links" in r)));
  assert.equal((repositories[0]?.project as { key: string }).key, "PROJ");
  assert.deepEqual(h.fixture.requests[0]?.query, { name: "web", start: "0", limit: "25" });
});

Deno.test("an unknown repository is a 404 error with Bitbucket's message and a hint", async () => {
  await using h = await connect({ routes: repositoryCases.routes });
  const result = await h.client.callTool({
    name: "get_repository_clone_info",
    arguments: { project: "PROJ", repo: "nope" },
  });
  assert.equal(result.isError, true);
  const text = firstText(result);
  assert.match(text, /GET \/api\/latest\/projects\/PROJ\/repos\/nope failed: 404 Not Found/);
  assert.match(text, /Repository PROJ\/nope does not exist\./);
  assert.match(text, /hint: check the project key/);
});
