/**
 * A change made without a clone, against the fixture Bitbucket, the way an
 * agent in a chat client or CI would: search code for a symbol, read the
 * window of the file around the hit, blame those lines, commit a fix on a new
 * branch made from main, open a pull request (its default reviewers added),
 * merge it, and delete the branch. Each step asserts what Bitbucket received
 * and what the tool returned.
 */
import assert from "node:assert/strict";
import { pullRequests, WEB as WEB_REPOSITORY } from "../../testing/cases/pull_requests.ts";
import { BRANCH_UTILS, refs } from "../../testing/cases/refs.ts";
import { search } from "../../testing/cases/search.ts";
import { APP_TS, COMMITTED, HEAD, source } from "../../testing/cases/source.ts";
import { readFixture, type Route, type SeenRequest } from "../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const WEB = { project: "PROJ", repo: "web" };
const BRANCH = "fix/greeting";
const FIXED = APP_TS.replace("Hello, ${name}!", "Hello there, ${name}!");

/** The pull request Bitbucket opens: pr-created.json's, from the fix branch, by the caller, with both default reviewers. */
function openedPullRequest(state: "OPEN" | "MERGED") {
  const pr = JSON.parse(readFixture("pull_requests/pr-created.json"));
  const reviewer = pr.reviewers[0];
  const carol = JSON.parse(readFixture("pull_requests/default-reviewers.json"))[1];
  const ben = JSON.parse(readFixture("source/commit-created.json")).author;
  return {
    ...pr,
    title: "Greet visitors warmly",
    description: undefined,
    state,
    open: state === "OPEN",
    closed: state !== "OPEN",
    version: state === "OPEN" ? 0 : 1,
    ...(state === "MERGED" ? { closedDate: 1732960000000 } : {}),
    author: { ...pr.author, user: { ...ben, links: undefined } },
    reviewers: [reviewer, { ...reviewer, user: carol }],
    fromRef: {
      ...pr.fromRef,
      id: `refs/heads/${BRANCH}`,
      displayId: BRANCH,
      latestCommit: COMMITTED,
    },
  };
}

const PR44 = `${REPO}/pull-requests/44`;
const routes: Route[] = [
  { method: "POST", path: `${REPO}/pull-requests`, status: 201, body: openedPullRequest("OPEN") },
  { method: "POST", path: `${PR44}/merge`, body: openedPullRequest("MERGED") },
  // What the person is shown before the merge: the pull request as opened.
  { method: "GET", path: PR44, body: openedPullRequest("OPEN") },
  // The fix branch, as the delete's question reads it: branches.json's entry for it, at the fix.
  {
    method: "GET",
    path: `${REPO}/branches`,
    query: { filterText: BRANCH },
    body: {
      ...JSON.parse(readFixture("refs/branches.json")),
      isLastPage: true,
      nextPageStart: undefined,
      values: [{
        ...JSON.parse(readFixture("refs/branches.json")).values[1],
        id: `refs/heads/${BRANCH}`,
        displayId: BRANCH,
        latestCommit: COMMITTED,
        latestChangeset: COMMITTED,
      }],
    },
  },
  ...search.routes,
  ...source.routes,
  ...pullRequests.routes,
  ...refs.routes,
];

/** What one step made Bitbucket receive: method, path, query, and the JSON or form body. */
function received(requests: SeenRequest[]) {
  return requests.map((r) => ({
    method: r.method,
    path: r.path,
    query: r.query,
    ...(r.body === undefined ? {} : { body: r.body }),
    ...(r.form === undefined ? {} : { form: r.form }),
  }));
}

Deno.test("a change without a clone: search, read, blame, commit on a new branch, pull request, merge, delete the branch", async (t) => {
  // Default safety (no --yolo), the tools named as a person would with --tools; the two
  // irreversible steps, merge and delete, ask the person, who says yes.
  await using h = await connect({
    routes,
    elicit: () => ({ action: "accept", content: { confirm: true } }),
    selection: {
      tools: [
        "search_code",
        "get_file_content",
        "get_file_blame",
        "commit_file",
        "create_pull_request",
        "merge_pull_request",
        "delete_branch",
      ],
    },
  });
  let seen = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    seen = h.fixture.requests.length;
    const result = await h.client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, `${name}: ${firstText(result)}`);
    return result;
  };
  const step = () => received(h.fixture.requests.slice(seen));

  let hitLine = 0;
  await t.step("search code for the symbol", async () => {
    const result = await call("search_code", { query: "greet", ...WEB });
    assert.deepEqual(step(), search.toolArguments.search_code!.requests);
    const { results } = result.structuredContent as {
      results: { path: string; lines: { line: number; text: string }[] }[];
    };
    assert.equal(results[0]?.path, "src/app.ts");
    hitLine = results[0]!.lines[0]!.line;
    assert.equal(hitLine, 4);
  });

  let commitId = "";
  await t.step("read the window of the file around the hit", async () => {
    const result = await call("get_file_content", {
      ...WEB,
      path: "src/app.ts",
      start_line: hitLine - 1,
      line_count: 3,
    });
    assert.deepEqual(step(), [
      { method: "GET", path: `${REPO}/commits`, query: { limit: "1" } },
      { method: "GET", path: `${REPO}/raw/src/app.ts`, query: { at: HEAD } },
    ]);
    const { file } = result.structuredContent as {
      file: {
        commitId: string;
        content: string;
        startLine: number;
        endLine: number;
        totalLines: number;
      };
    };
    assert.deepEqual([file.startLine, file.endLine, file.totalLines], [3, 5, 6]);
    assert.match(file.content, /export function greet\(name: string\): string \{\n/);
    assert.match(firstText(result), /^3\t\/\/ Greets the visitor.*\n4\texport function greet/);
    commitId = file.commitId;
    assert.equal(commitId, HEAD);
  });

  await t.step("blame those lines", async () => {
    const result = await call("get_file_blame", {
      ...WEB,
      path: "src/app.ts",
      start_line: 3,
      end_line: 5,
    });
    assert.deepEqual(step(), [{
      method: "GET",
      path: `${REPO}/browse/src/app.ts`,
      query: { blame: "true", noContent: "true", start: "2", limit: "3" },
    }]);
    const { blame } = result.structuredContent as {
      blame: { startLine: number; endLine: number; author: { name: string } }[];
    };
    assert.deepEqual(blame.map((b) => [b.startLine, b.endLine, b.author.name]), [
      [3, 3, "jane.doe"],
      [4, 5, "sam.lee"],
    ]);
  });

  await t.step("commit the fix on a new branch created from main", async () => {
    const result = await call("commit_file", {
      ...WEB,
      path: "src/app.ts",
      content: FIXED,
      message: "Greet visitors warmly",
      branch: BRANCH,
      source_branch: "main",
      source_commit_id: commitId,
    });
    assert.deepEqual(step(), [
      { method: "GET", path: `${REPO}/default-branch`, query: {} },
      {
        method: "PUT",
        path: `${REPO}/browse/src/app.ts`,
        query: {},
        form: {
          content: FIXED,
          message: "Greet visitors warmly",
          branch: BRANCH,
          sourceCommitId: HEAD,
          sourceBranch: "main",
        },
      },
    ]);
    const { commit } = result.structuredContent as {
      commit: { id: string; parents: { id: string }[] };
    };
    assert.equal(commit.id, COMMITTED);
    assert.deepEqual(commit.parents.map((p) => p.id), [HEAD]);
  });

  await t.step("open a pull request into main, its default reviewers added", async () => {
    const result = await call("create_pull_request", {
      ...WEB,
      from_ref: BRANCH,
      title: "Greet visitors warmly",
    });
    const requests = step();
    assert.deepEqual(requests.map((r) => `${r.method} ${r.path}`), [
      `GET ${REPO}/default-branch`,
      `GET ${REPO}`,
      "GET /default-reviewers/latest/projects/PROJ/repos/web/reviewers",
      `POST ${REPO}/pull-requests`,
    ]);
    assert.deepEqual(requests[2]?.query, {
      sourceRepoId: "11",
      targetRepoId: "11",
      sourceRefId: `refs/heads/${BRANCH}`,
      targetRefId: "refs/heads/main",
    });
    assert.deepEqual(requests[3]?.body, {
      title: "Greet visitors warmly",
      fromRef: { id: `refs/heads/${BRANCH}`, repository: WEB_REPOSITORY },
      toRef: { id: "refs/heads/main", repository: WEB_REPOSITORY },
      reviewers: [{ user: { name: "asmith" } }, { user: { name: "c.davis@example.com" } }],
    });
    const out = result.structuredContent as {
      pullRequest: {
        id: number;
        state: string;
        fromRef: { displayId: string; latestCommit: string };
        reviewers: { name: string }[];
      };
      defaultReviewersAdded: string[];
    };
    assert.deepEqual(out.defaultReviewersAdded, ["asmith", "c.davis@example.com"]);
    assert.deepEqual(
      [out.pullRequest.id, out.pullRequest.state, out.pullRequest.fromRef.displayId],
      [44, "OPEN", BRANCH],
    );
    assert.equal(out.pullRequest.fromRef.latestCommit, COMMITTED);
    assert.deepEqual(out.pullRequest.reviewers.map((r) => r.name), [
      "asmith",
      "c.davis@example.com",
    ]);
  });

  await t.step("merge it", async () => {
    const result = await call("merge_pull_request", { ...WEB, pr_id: 44, version: 0 });
    // Read for the form the person confirms, read again on their yes (unchanged), then merged.
    const read = { method: "GET", path: PR44, query: {} };
    assert.deepEqual(step(), [read, read, {
      method: "POST",
      path: `${PR44}/merge`,
      query: { version: "0" },
      body: { version: 0 },
    }]);
    const { pullRequest } = result.structuredContent as { pullRequest: { state: string } };
    assert.equal(pullRequest.state, "MERGED");
  });

  await t.step(
    "after the merge, delete the branch, only if it still points at the fix",
    async () => {
      const result = await call("delete_branch", { ...WEB, name: BRANCH, end_point: COMMITTED });
      // Read for the form (the head the person confirms), read again on their yes, then deleted.
      const read = {
        method: "GET",
        path: `${REPO}/branches`,
        query: { filterText: BRANCH, limit: "100" },
      };
      assert.deepEqual(step(), [read, read, {
        method: "DELETE",
        path: BRANCH_UTILS,
        query: {},
        body: { name: `refs/heads/${BRANCH}`, endPoint: COMMITTED },
      }]);
      assert.deepEqual(result.structuredContent, { deleted: `refs/heads/${BRANCH}` });
    },
  );

  assert.deepEqual(h.fixture.unmatched, [], "every request had a fixture");
});
