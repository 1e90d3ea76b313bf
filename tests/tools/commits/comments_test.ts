import assert from "node:assert/strict";
import { commits, PR_HEAD } from "../../../testing/cases/commits.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const COMMENTS = `/api/latest/projects/PROJ/repos/web/commits/${PR_HEAD}/comments`;
const FILE = { project: "PROJ", repo: "web", commit_id: PR_HEAD, path: "src/login/form.ts" };

/** The anchor of the comment the server posted. */
function postedAnchor(requests: { method: string; path: string; body?: unknown }[]) {
  const post = requests.find((r) => r.method === "POST" && r.path === COMMENTS);
  return (post?.body as { anchor?: unknown } | undefined)?.anchor;
}

Deno.test("list_commit_comments gives a file's threads with their line and replies", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({ name: "list_commit_comments", arguments: FILE });
  const out = result.structuredContent as {
    comments: {
      id: number;
      author: { name: string };
      anchor: unknown;
      replies: { id: number; parentId: number; text: string }[];
    }[];
    truncated: boolean;
  };
  assert.equal(out.truncated, false);
  assert.equal(out.comments.length, 1);
  const [thread] = out.comments;
  assert.deepEqual(thread!.anchor, {
    path: "src/login/form.ts",
    line: 2,
    lineType: "ADDED",
    fileType: "TO",
  });
  assert.deepEqual(thread!.replies.map((r) => [r.id, r.parentId]), [[402, 401]]);
  assert.equal(h.fixture.requests[0]?.query.path, "src/login/form.ts");
});

Deno.test("add_commit_comment on an added line anchors it by its new number", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "add_commit_comment",
    arguments: { ...FILE, text: "Nice catch.", line: 2 },
  });
  assert.equal(result.isError, undefined, firstText(result));
  assert.deepEqual(postedAnchor(h.fixture.requests), {
    path: "src/login/form.ts",
    diffType: "COMMIT",
    toHash: PR_HEAD,
    line: 2,
    lineType: "ADDED",
    fileType: "TO",
  });
  const { comment } = result.structuredContent as { comment: { id: number } };
  assert.equal(comment.id, 403);
});

Deno.test("add_commit_comment on an unchanged line anchors it by its old number, as Bitbucket's UI does", async () => {
  await using h = await connect({ routes: commits.routes });
  await h.client.callTool({
    name: "add_commit_comment",
    arguments: { ...FILE, text: "Why a blank line here?", line: 4 },
  });
  assert.deepEqual(postedAnchor(h.fixture.requests), {
    path: "src/login/form.ts",
    diffType: "COMMIT",
    toHash: PR_HEAD,
    line: 3,
    lineType: "CONTEXT",
    fileType: "FROM",
  });
});

Deno.test("add_commit_comment refuses a line the commit's diff does not show, posting nothing", async () => {
  await using h = await connect({ routes: commits.routes });
  const result = await h.client.callTool({
    name: "add_commit_comment",
    arguments: { ...FILE, text: "Here?", line: 8 },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot comment on "src\/login\/form.ts" in commit a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f of PROJ\/web: line 8 of "src\/login\/form.ts" is not in the commit's diff \(hint: get_commit_diff/,
  );
  assert.equal(h.fixture.requests.some((r) => r.method === "POST"), false);
});

Deno.test("add_commit_comment without a line comments on the file and reads no diff", async () => {
  await using h = await connect({ routes: commits.routes });
  await h.client.callTool({
    name: "add_commit_comment",
    arguments: { ...FILE, text: "This file needs a test." },
  });
  assert.deepEqual(postedAnchor(h.fixture.requests), {
    path: "src/login/form.ts",
    diffType: "COMMIT",
    toHash: PR_HEAD,
  });
  assert.deepEqual(h.fixture.requests.map((r) => r.method), ["POST"]);
});
