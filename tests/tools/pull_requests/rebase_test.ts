/**
 * rebase_pull_request (src/tools/pull_requests/rebase.ts): asked only when
 * Bitbucket says the rebase may happen, refused with its vetoes otherwise,
 * and sent at the version and source head the person saw.
 */
import assert from "node:assert/strict";
import { PR, pullRequests, REBASE } from "../../../testing/cases/pull_requests.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const ARGS = { project: "PROJ", repo: "web", pr_id: 42 };
const HEAD = "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f";
const VETOED = [{
  method: "GET" as const,
  path: REBASE,
  fixture: "pull_requests/rebase-check-vetoed.json",
}];

Deno.test("rebase_pull_request asks naming the branches, head and version, then rebases at that version", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: pullRequests.routes,
    elicit: (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { confirm: true } };
    },
  });
  const result = await h.client.callTool({ name: "rebase_pull_request", arguments: ARGS });
  assert.notEqual(result.isError, true, firstText(result));
  assert.equal(asked.length, 1);
  assert.match(
    asked[0]!,
    /^Rebase "feature\/login" \(at a3c7e0f4b9d2\) of pull request #42 "Validate the login form before submitting" \(version 3\) in PROJ\/web onto "main": Bitbucket says it can/,
  );
  assert.deepEqual(result.structuredContent, {
    rebase: {
      pullRequestId: 42,
      branch: "refs/heads/feature/login",
      previousCommit: HEAD,
      latestCommit: "5b1e9d7c3a2f4e6b8d0c1a3e5f7b9d2c4e6a8f01",
    },
  });
  const posts = h.fixture.requests.filter((r) => r.method === "POST");
  assert.deepEqual(posts.map((r) => [r.path, r.body]), [[REBASE, { version: 3 }]]);
});

Deno.test("rebase_pull_request sends nothing when the person declines", async () => {
  await using h = await connect({
    routes: pullRequests.routes,
    elicit: () => ({ action: "decline" }),
  });
  const result = await h.client.callTool({ name: "rebase_pull_request", arguments: ARGS });
  assert.equal(result.isError, true);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
});

Deno.test("rebase_pull_request refuses with Bitbucket's vetoes before asking anyone", async () => {
  let asked = 0;
  await using h = await connect({
    routes: [...VETOED, ...pullRequests.routes],
    elicit: () => {
      asked++;
      return { action: "accept", content: { confirm: true } };
    },
  });
  const result = await h.client.callTool({ name: "rebase_pull_request", arguments: ARGS });
  assert.equal(result.isError, true);
  assert.equal(asked, 0, "the person is not asked about a rebase Bitbucket refuses");
  assert.match(
    firstText(result),
    /Cannot rebase pull request #42: Bitbucket says it cannot be rebased: The pull request has conflicts \(Rebasing feature\/login onto main conflicts in src\/login\/validate\.ts; resolve it locally\.\) \(hint: /,
  );
  assert.deepEqual(h.fixture.requests.filter((r) => r.method === "POST"), []);
});

Deno.test("rebase_pull_request under --yolo still checks first, and sends nothing when vetoed", async () => {
  await using h = await connect({
    routes: [...VETOED, ...pullRequests.routes],
    selection: { yolo: true },
  });
  const result = await h.client.callTool({ name: "rebase_pull_request", arguments: ARGS });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /The pull request has conflicts/);
  assert.deepEqual(h.fixture.requests.map((r) => [r.method, r.path]), [["GET", REBASE]]);
});

Deno.test("rebase_pull_request is refused when the source branch moved between the question and the yes", async () => {
  const pr = JSON.parse(await Deno.readTextFile("fixtures/pull_requests/pr-42.json"));
  const pushed = { ...pr, fromRef: { ...pr.fromRef, latestCommit: "9".repeat(40) } };
  await using h = await connect({
    routes: [
      { method: "GET", path: PR, fixture: "pull_requests/pr-42.json", once: true },
      { method: "GET", path: PR, body: pushed },
      ...pullRequests.routes,
    ],
    elicit: () => ({ action: "accept", content: { confirm: true } }),
  });
  const result = await h.client.callTool({ name: "rebase_pull_request", arguments: ARGS });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /pull request #42's version and source head was version 3 at a3c7/,
  );
  assert.deepEqual(h.fixture.requests.filter((r) => r.method === "POST"), []);
});

Deno.test("rebase_pull_request says what a refused rebase (409) means", async () => {
  await using h = await connect({
    routes: [
      {
        method: "POST",
        path: REBASE,
        status: 409,
        body: { errors: [{ context: null, message: "The rebase encountered conflicts." }] },
      },
      ...pullRequests.routes,
    ],
    selection: { yolo: true },
  });
  const result = await h.client.callTool({
    name: "rebase_pull_request",
    arguments: { ...ARGS, version: 3 },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot rebase pull request #42: POST .*\/rebase failed: 409 Conflict: The rebase encountered conflicts\. \(hint: Bitbucket's message says why: a conflict/,
  );
});

Deno.test("rebase_pull_request is an unsafe write: withheld by --withhold-unsafe", async () => {
  await using h = await connect({
    routes: pullRequests.routes,
    selection: { withholdUnsafe: true },
  });
  const names = (await h.client.listTools()).tools.map((t) => t.name);
  assert.ok(!names.includes("rebase_pull_request"));
  assert.ok(names.includes("get_pr_merge_status"));
});
