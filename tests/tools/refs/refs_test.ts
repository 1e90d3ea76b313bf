import assert from "node:assert/strict";
import { BRANCH_UTILS, refs } from "../../../testing/cases/refs.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { ESCAPED_META } from "../../../src/tools/kit/define.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const GIT = "/git/latest/projects/PROJ/repos/web";

Deno.test("list_branches marks the default branch and reports where the next page starts", async () => {
  await using h = await connect({ routes: refs.routes });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web", limit: 3 },
  });
  const out = result.structuredContent as {
    branches: { displayId: string; isDefault: boolean }[];
    isLastPage: boolean;
    nextPageStart?: number;
  };
  assert.deepEqual(out.branches.map((b) => [b.displayId, b.isDefault]), [
    ["main", true],
    ["feature/login", false],
    ["release/2.0", false],
  ]);
  assert.equal(out.isLastPage, false);
  assert.equal(out.nextPageStart, 3);
});

Deno.test("list_branches walks pages until it holds limit items", async () => {
  await using h = await connect({ routes: refs.routes });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web", limit: 10 },
  });
  const out = result.structuredContent as {
    branches: { displayId: string }[];
    isLastPage: boolean;
  };
  assert.deepEqual(out.branches.map((b) => b.displayId), [
    "main",
    "feature/login",
    "release/2.0",
    "hotfix/typo",
  ]);
  assert.equal(out.isLastPage, true);
  assert.deepEqual(h.fixture.requests.map((r) => [r.query.start, r.query.limit]), [["0", "10"], [
    "3",
    "7",
  ]]);
});

Deno.test("list_branches honours start from a previous nextPageStart", async () => {
  await using h = await connect({ routes: refs.routes });
  await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web", start: 3 },
  });
  assert.equal(h.fixture.requests[0]?.query.start, "3");
});

const resolveCases = [
  { ref: "main", type: "BRANCH", id: "refs/heads/main", requests: 1 },
  { ref: "refs/heads/release/2.0", type: "BRANCH", id: "refs/heads/release/2.0", requests: 1 },
  { ref: "v1.0.0", type: "TAG", id: "refs/tags/v1.0.0", requests: 2 },
  { ref: "refs/tags/v1.1.0", type: "TAG", id: "refs/tags/v1.1.0", requests: 1 },
];
for (const c of resolveCases) {
  Deno.test(`resolve_ref ${c.ref} resolves to the ${c.type.toLowerCase()} ${c.id}`, async () => {
    await using h = await connect({ routes: refs.routes });
    const result = await h.client.callTool({
      name: "resolve_ref",
      arguments: { project: "PROJ", repo: "web", ref: c.ref },
    });
    assert.notEqual(result.isError, true, firstText(result));
    const { ref } = result.structuredContent as {
      ref: { id: string; type: string; latestCommit: string };
    };
    assert.equal(ref.id, c.id);
    assert.equal(ref.type, c.type);
    assert.match(ref.latestCommit, /^[0-9a-f]{40}$/);
    assert.equal(h.fixture.requests.length, c.requests);
  });
}

Deno.test("resolve_ref of an unknown name is an error naming the ref", async () => {
  await using h = await connect({ routes: refs.routes });
  const result = await h.client.callTool({
    name: "resolve_ref",
    arguments: { project: "PROJ", repo: "web", ref: "no-such-ref" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /"no-such-ref"/);
  assert.match(firstText(result), /no branch or tag/);
  assert.deepEqual(h.fixture.requests.map((r) => r.path), [`${REPO}/branches`, `${REPO}/tags`]);
});

Deno.test("create_tag of an existing name reports Bitbucket's conflict", async () => {
  await using h = await connect({
    routes: [{
      method: "POST",
      path: `${REPO}/tags`,
      status: 409,
      fixture: "errors/tag-exists.json",
    }, ...refs.routes],
  });
  const result = await h.client.callTool({
    name: "create_tag",
    arguments: { project: "PROJ", repo: "web", name: "v2.0.0", start_point: "main" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /409/);
  assert.match(firstText(result), /Tag 'v2.0.0' already exists/);
  assert.equal(h.fixture.requests[0]?.headers["x-atlassian-token"], "no-check");
});

Deno.test("create_branch creates the branch at the start point and returns it", async () => {
  await using h = await connect({ routes: refs.routes });
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
    }, ...refs.routes],
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

Deno.test("delete_branch deletes by qualified name, with the expected commit when given", async () => {
  await using h = await connect({ routes: refs.routes, selection: { yolo: true } });
  const result = await h.client.callTool({
    name: "delete_branch",
    arguments: { project: "PROJ", repo: "web", name: "feature/login", end_point: "a3c7e0f4b9d2" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, { deleted: "refs/heads/feature/login" });
  const [request] = h.fixture.requests;
  assert.deepEqual([request?.method, request?.path], ["DELETE", BRANCH_UTILS]);
  assert.deepEqual(request?.body, { name: "refs/heads/feature/login", endPoint: "a3c7e0f4b9d2" });
  assert.equal(request?.headers["x-atlassian-token"], "no-check");
});

Deno.test("delete_branch that Bitbucket refuses (the default branch) reports why", async () => {
  await using h = await connect({
    routes: [{
      method: "DELETE",
      path: BRANCH_UTILS,
      status: 400,
      body: {
        errors: [{
          context: null,
          message: "The default branch cannot be deleted.",
          exceptionName: null,
        }],
      },
    }],
    selection: { yolo: true },
  });
  const result = await h.client.callTool({
    name: "delete_branch",
    arguments: { project: "PROJ", repo: "web", name: "refs/heads/main" },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot delete branch "refs\/heads\/main" in PROJ\/web: DELETE .* 400 Bad Request: The default branch cannot be deleted\./,
  );
  assert.deepEqual(h.fixture.requests[0]?.body, { name: "refs/heads/main" });
});

Deno.test("delete_tag deletes by name, with or without refs/tags/, a name with / spanning segments", async () => {
  await using h = await connect({
    routes: [{ method: "DELETE", path: `${GIT}/tags/release/2.0`, status: 204 }, ...refs.routes],
    selection: { yolo: true },
  });
  for (const name of ["v1.0.0", "refs/tags/release/2.0"]) {
    const result = await h.client.callTool({
      name: "delete_tag",
      arguments: { project: "PROJ", repo: "web", name },
    });
    assert.notEqual(result.isError, true, firstText(result));
  }
  assert.deepEqual(h.fixture.requests.map((r) => `${r.method} ${r.path}`), [
    `DELETE ${GIT}/tags/v1.0.0`,
    `DELETE ${GIT}/tags/release/2.0`,
  ]);
});

Deno.test("delete_tag refuses a name with a dot segment before any request", async () => {
  await using h = await connect({ routes: refs.routes, selection: { yolo: true } });
  for (const name of ["../../admin", "refs/tags/", "v1//x"]) {
    const result = await h.client.callTool({
      name: "delete_tag",
      arguments: { project: "PROJ", repo: "web", name },
    });
    assert.equal(result.isError, true, name);
    assert.match(
      firstText(result),
      /name: must be 1-1024 characters with no empty, '\.' or '\.\.' segments/,
    );
  }
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("delete_branch and delete_tag are unsafe writes: listed as destructive, asking first, withheld with --withhold-unsafe", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: refs.routes,
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "decline" };
    },
  });
  const tool = (await h.client.listTools()).tools.find((t) => t.name === "delete_tag");
  assert.equal(tool?.annotations?.destructiveHint, true);
  const result = await h.client.callTool({
    name: "delete_tag",
    arguments: { project: "PROJ", repo: "web", name: "v1.0.0" },
  });
  assert.equal(result.isError, true);
  assert.deepEqual(asked, [
    `Delete tag "v1.0.0" from PROJ/web, at commit e2d3c4b5a697; Bitbucket cannot restore it`,
  ]);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
  await using withheld = await connect({ selection: { withholdUnsafe: true } });
  const names = (await withheld.client.listTools()).tools.map((t) => t.name);
  assert.ok(!names.includes("delete_branch") && !names.includes("delete_tag"));
});

// ---- A branch and a tag named with hidden characters, from listing to delete. ----

/** A right-to-left override, a zero-width space and a Unicode tag ("A"), hidden in a name. */
const BRANCH = "feature/\u202Efix\u200B\u{E0041}";
const TAG = "v2/\u202Erc\u200B\u{E0041}";
/** How results show them, and how a model passes them back. */
const SHOWN_BRANCH = "feature/\\u{202E}fix\\u{200B}\\u{E0041}";
const SHOWN_TAG = "v2/\\u{202E}rc\\u{200B}\\u{E0041}";
const HIDDEN = /[\u202E\u200B\u{E0041}]/u;
const TIP = "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f";

/** Bitbucket listing the hostile branch and tag, and deleting them. */
const HOSTILE_REFS = [
  {
    method: "GET" as const,
    path: `${REPO}/branches`,
    body: {
      isLastPage: true,
      values: [{ id: `refs/heads/${BRANCH}`, displayId: BRANCH, latestCommit: TIP }],
    },
  },
  {
    method: "GET" as const,
    path: `${REPO}/tags`,
    body: {
      isLastPage: true,
      values: [{ id: `refs/tags/${TAG}`, displayId: TAG, latestCommit: TIP, hash: null }],
    },
  },
  { method: "DELETE" as const, path: BRANCH_UTILS, status: 204 },
  {
    method: "DELETE" as const,
    path: `${GIT}/tags/${TAG.split("/").map(encodeURIComponent).join("/")}`,
    status: 204,
  },
];

Deno.test("list_branches and list_tags show a hidden character in a name as an escape, noted in _meta", async () => {
  await using h = await connect({ routes: HOSTILE_REFS });
  const branches = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.deepEqual((branches.structuredContent as { branches: unknown[] }).branches, [
    {
      id: `refs/heads/${SHOWN_BRANCH}`,
      displayId: SHOWN_BRANCH,
      latestCommit: TIP,
      isDefault: false,
    },
  ]);
  assert.doesNotMatch(firstText(branches), HIDDEN);
  assert.deepEqual(branches._meta?.[ESCAPED_META], {
    ids: [`refs/heads/${SHOWN_BRANCH}`, SHOWN_BRANCH],
    count: 2,
  });
  const tags = await h.client.callTool({
    name: "list_tags",
    arguments: { project: "PROJ", repo: "web" },
  });
  const [tag] = (tags.structuredContent as { tags: { id: string; displayId: string }[] }).tags;
  assert.equal(tag?.id, `refs/tags/${SHOWN_TAG}`);
  assert.equal(tag?.displayId, SHOWN_TAG);
  assert.doesNotMatch(firstText(tags), HIDDEN);
});

Deno.test("resolve_ref takes a name as shown and looks up its real bytes", async () => {
  await using h = await connect({ routes: HOSTILE_REFS });
  const result = await h.client.callTool({
    name: "resolve_ref",
    arguments: { project: "PROJ", repo: "web", ref: `refs/heads/${SHOWN_BRANCH}` },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.equal(h.fixture.requests[0]?.query.filterText, BRANCH);
  assert.deepEqual(result.structuredContent, {
    ref: {
      id: `refs/heads/${SHOWN_BRANCH}`,
      displayId: SHOWN_BRANCH,
      latestCommit: TIP,
      type: "BRANCH",
    },
  });
});

Deno.test("delete_branch takes the name as shown, asks with it shown, and deletes the real bytes", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: HOSTILE_REFS,
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { confirm: true } };
    },
  });
  const result = await h.client.callTool({
    name: "delete_branch",
    arguments: { project: "PROJ", repo: "web", name: SHOWN_BRANCH },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.ok(asked[0]?.includes(JSON.stringify(SHOWN_BRANCH)), asked[0]);
  assert.doesNotMatch(asked[0]!, HIDDEN);
  const deletes = h.fixture.requests.filter((r) => r.method === "DELETE");
  assert.deepEqual(deletes.map((r) => r.body), [{ name: `refs/heads/${BRANCH}`, endPoint: TIP }]);
  assert.deepEqual(result.structuredContent, { deleted: `refs/heads/${SHOWN_BRANCH}` });
});

Deno.test("delete_tag takes the name as shown and deletes the real bytes, percent-encoded in the path", async () => {
  await using h = await connect({ routes: HOSTILE_REFS, selection: { yolo: true } });
  const result = await h.client.callTool({
    name: "delete_tag",
    arguments: { project: "PROJ", repo: "web", name: `refs/tags/${SHOWN_TAG}` },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(h.fixture.unmatched, []);
  const [deleted] = h.fixture.requests.filter((r) => r.method === "DELETE");
  assert.equal(deleted?.path, `${GIT}/tags/v2/%E2%80%AErc%E2%80%8B%F3%A0%81%81`);
  assert.deepEqual(result.structuredContent, { deleted: `refs/tags/${SHOWN_TAG}` });
});

Deno.test("a ref that is not found is named in the error as shown, never raw", async () => {
  await using h = await connect({ routes: refs.routes });
  const result = await h.client.callTool({
    name: "resolve_ref",
    arguments: { project: "PROJ", repo: "web", ref: "no-such-ref\u{202E}" },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /"no-such-ref\\u\{202E\}"/);
  assert.doesNotMatch(firstText(result), HIDDEN);
});
