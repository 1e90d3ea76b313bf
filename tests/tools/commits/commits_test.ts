import assert from "node:assert/strict";
import { commits, PR_HEAD } from "../../../testing/cases/commits.ts";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { DiffPayload } from "../../support/pr_calls.ts";

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

// --- what one commit changed, and what a comparison brings -----------------------------

const REPO = "/api/latest/projects/PROJ/repos/web";
const COMMIT = { project: "PROJ", repo: "web", commit_id: PR_HEAD };
const COMPARE = { project: "PROJ", repo: "web", from: "main", to: "feature/login" };

/** A section of pull request #42's raw diff as Bitbucket's JSON diff gives it: without `index`, mode or rename lines. */
function section(file: string): string {
  const raw = readFixture("pull_requests/pr-42.diff");
  const text = raw.split(/^(?=diff --git )/m).find((s) => s.includes(`dst://${file}\n`)) ?? "";
  return text
    .split("\n")
    .filter((line) => !/^(index |new file mode |similarity index |rename (from|to) )/.test(line))
    .join("\n");
}

async function diffCall(name: string, args: Record<string, unknown>, routes = commits.routes) {
  await using h = await connect({ routes });
  const result = await h.client.callTool({ name, arguments: args });
  return {
    result,
    out: DiffPayload.parse(result.structuredContent),
    requests: h.fixture.requests.map((r) => ({ path: r.path, query: r.query })),
  };
}

Deno.test("get_commit_diff gives the commit's JSON diff as unified text, the document itself", async () => {
  const { result, out, requests } = await diffCall("get_commit_diff", COMMIT);
  const expected = section("src/login/form.ts") + section("src/login/validate.ts");
  assert.equal(out.diff, expected);
  assert.equal(out.truncated, false);
  assert.equal(firstText(result), expected);
  assert.ok(out.diff.includes("--- /dev/null\n+++ dst://src/login/validate.ts\n"), "an added file");
  assert.deepEqual(requests, [{
    path: `${REPO}/commits/${PR_HEAD}/diff`,
    query: { withComments: "false" },
  }]);
});

Deno.test("get_commit_diff looks up an abbreviated id's full id first", async () => {
  const { requests } = await diffCall("get_commit_diff", { ...COMMIT, commit_id: "a3c7e0f" }, [
    {
      method: "GET",
      path: `${REPO}/commits/a3c7e0f`,
      body: { id: PR_HEAD, displayId: "a3c7e0f4b9d" },
    },
    ...commits.routes,
  ]);
  assert.deepEqual(requests.map((r) => r.path), [
    `${REPO}/commits/a3c7e0f`,
    `${REPO}/commits/${PR_HEAD}/diff`,
  ]);
});

Deno.test("get_commit_diff cut at max_bytes names the files left out, from the commit's changes", async () => {
  const { result, out, requests } = await diffCall("get_commit_diff", {
    ...COMMIT,
    max_bytes: 800,
  });
  assert.equal(out.truncated, true);
  assert.deepEqual(out.omittedFiles, ["src/login/validate.ts"]);
  assert.ok(new TextEncoder().encode(out.diff).length <= 800);
  assert.match(
    firstText(result),
    /\[diff cut at max_bytes; left out or cut short: src\/login\/validate\.ts/,
  );
  assert.deepEqual(requests.at(-1), {
    path: `${REPO}/commits/${PR_HEAD}/changes`,
    query: { withComments: "false", start: "0", limit: "1000" },
  });
});

Deno.test("get_commit_diff of a diff Bitbucket cut short says so, naming what it lacks", async () => {
  const whole = JSON.parse(readFixture("commits/commit-diff.json"));
  const { out } = await diffCall("get_commit_diff", COMMIT, [{
    method: "GET",
    path: `${REPO}/commits/${PR_HEAD}/diff`,
    body: { ...whole, diffs: whole.diffs.slice(0, 1), truncated: true },
  }, ...commits.routes]);
  assert.equal(out.truncated, true);
  assert.deepEqual(out.omittedFiles, ["src/login/form.ts", "src/login/validate.ts"]);
});

Deno.test("get_commit_diff with path shows that file only", async () => {
  const { out } = await diffCall("get_commit_diff", { ...COMMIT, path: "src/login/validate.ts" });
  assert.equal(out.diff, section("src/login/validate.ts"));
});

Deno.test("get_commit_diff of a file the commit does not change says so, with a hint", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "get_commit_diff",
    arguments: { ...COMMIT, path: "docs/login.md" },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /Cannot show "docs\/login\.md" in commit a3c7e0f4b9d of PROJ\/web: the commit does not change it \(hint: list_commit_changes/,
  );
});

Deno.test("get_compare_diff asks for what `to` brings (Bitbucket's own names reversed), moves included", async () => {
  const { out, requests } = await diffCall("get_compare_diff", { ...COMPARE, context_lines: 3 });
  assert.deepEqual(requests, [{
    path: `${REPO}/compare/diff`,
    query: { from: "feature/login", to: "main", contextLines: "3" },
  }]);
  assert.equal(
    out.diff,
    section("docs/login.md") + section("src/login/form.ts") + section("src/login/validate.ts"),
  );
  assert.ok(out.diff.startsWith("diff --git src://docs/auth.md dst://docs/login.md\n"));
});

Deno.test("get_compare_diff with a moved file's old path shows it", async () => {
  const { out } = await diffCall("get_compare_diff", { ...COMPARE, path: "docs/auth.md" });
  assert.equal(out.diff, section("docs/login.md"));
});

Deno.test("get_compare_diff cut at max_bytes names the files left out, from the comparison's changes", async () => {
  const { out, requests } = await diffCall("get_compare_diff", { ...COMPARE, max_bytes: 300 });
  assert.ok(out.diff.startsWith(section("docs/login.md")), "the moved file fits whole");
  assert.deepEqual(out.omittedFiles, ["src/login/form.ts", "src/login/validate.ts"]);
  assert.deepEqual(requests.at(-1), {
    path: `${REPO}/compare/changes`,
    query: { from: "feature/login", to: "main", start: "0", limit: "1000" },
  });
});

Deno.test("get_compare_diff of refs with nothing between them says so in its text", async () => {
  const { result, out } = await diffCall("get_compare_diff", COMPARE, [{
    method: "GET",
    path: `${REPO}/compare/diff`,
    body: { fromHash: PR_HEAD, toHash: PR_HEAD, contextLines: 10, diffs: [], truncated: false },
  }]);
  assert.equal(out.diff, "");
  assert.equal(firstText(result), "[empty diff: `to` brings nothing `from` lacks]");
});

Deno.test("list_commit_changes lists the files one commit changes", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({ name: "list_commit_changes", arguments: COMMIT });
  assert.deepEqual(result.structuredContent, {
    changes: [
      { path: "src/login/form.ts", type: "MODIFY", nodeType: "FILE" },
      { path: "src/login/validate.ts", type: "ADD", nodeType: "FILE" },
    ],
    isLastPage: true,
  });
});

Deno.test("list_commit_pull_requests names the pull requests holding the commit", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({ name: "list_commit_pull_requests", arguments: COMMIT });
  const out = result.structuredContent as { pullRequests: { id: number; state: string }[] };
  assert.deepEqual(out.pullRequests.map((p) => [p.id, p.state]), [[42, "OPEN"]]);
});
