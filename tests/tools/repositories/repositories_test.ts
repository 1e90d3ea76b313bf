import assert from "node:assert/strict";
import { repositories as repositoryCases } from "../../../testing/cases/repositories.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const FORK = "/api/latest/projects/~BWILSON/repos/web";

Deno.test("get_repository gives the settings, the default branch and the clone URLs", async () => {
  await using h = await connect({ routes: repositoryCases.routes });
  const result = await h.client.callTool({
    name: "get_repository",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    repository: {
      slug: "web",
      id: 11,
      name: "web",
      description: "The web front end",
      project: {
        key: "PROJ",
        id: 1,
        name: "Project",
        description: "The main project",
        public: false,
        type: "NORMAL",
      },
      scmId: "git",
      state: "AVAILABLE",
      public: false,
      archived: false,
      forkable: true,
      defaultBranch: "main",
      cloneUrls: {
        https: "https://bitbucket.example.com/scm/proj/web.git",
        ssh: "ssh://git@bitbucket.example.com:7999/proj/web.git",
      },
    },
  });
  assert.deepEqual(h.fixture.requests.map((r) => r.path), [REPO, `${REPO}/default-branch`]);
});

Deno.test("get_repository of a fork names the repository it was forked from", async () => {
  await using h = await connect({
    routes: [
      { method: "GET", path: FORK, fixture: "repositories/repo-fork.json" },
      {
        method: "GET",
        path: `${FORK}/default-branch`,
        fixture: "pull_requests/default-branch.json",
      },
    ],
  });
  const result = await h.client.callTool({
    name: "get_repository",
    arguments: { project: "~BWILSON", repo: "web" },
  });
  const { repository } = result.structuredContent as {
    repository: { origin?: string; project: { key: string }; cloneUrls: { https?: string } };
  };
  assert.equal(repository.origin, "PROJ/web");
  assert.equal(repository.project.key, "~BWILSON");
  assert.equal(repository.cloneUrls.https, "https://bitbucket.example.com/scm/~bwilson/web.git");
});

Deno.test("get_repository of an empty repository leaves the default branch out", async () => {
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/default-branch`,
        status: 404,
        fixture: "errors/no-default-branch.json",
      },
      ...repositoryCases.routes,
    ],
  });
  const result = await h.client.callTool({
    name: "get_repository",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const { repository } = result.structuredContent as { repository: Record<string, unknown> };
  assert.ok(!("defaultBranch" in repository));
  assert.equal(repository.slug, "web");
});

Deno.test("get_repository reports a failing default-branch lookup other than a 404", async () => {
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/default-branch`,
        status: 500,
        fixture: "errors/server-error.json",
      },
      ...repositoryCases.routes,
    ],
  });
  const result = await h.client.callTool({
    name: "get_repository",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /^Cannot read the default branch of PROJ\/web: GET .* 500/);
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
    name: "get_repository",
    arguments: { project: "PROJ", repo: "nope" },
  });
  assert.equal(result.isError, true);
  const text = firstText(result);
  assert.match(text, /GET \/api\/latest\/projects\/PROJ\/repos\/nope failed: 404 Not Found/);
  assert.match(text, /Repository PROJ\/nope does not exist\./);
  assert.match(text, /hint: check the project key/);
  assert.equal(h.fixture.requests.length, 1, "no default-branch lookup for a missing repository");
});
