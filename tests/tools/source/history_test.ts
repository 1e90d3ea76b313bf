import assert from "node:assert/strict";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { HEAD, source } from "../../../testing/cases/source.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const APP = { project: "PROJ", repo: "web", path: "src/app.ts" };
const SAM = "e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6c5b";
const JANE = "1f0e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6";

type Blame = {
  blame: {
    startLine: number;
    endLine: number;
    commitId: string;
    displayCommitId?: string;
    author: { name: string; displayName?: string };
    authorTimestamp?: number;
  }[];
  isLastPage: boolean;
};

Deno.test("get_file_blame gives each run of lines with its commit and author", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({ name: "get_file_blame", arguments: APP });
  assert.notEqual(result.isError, true, firstText(result));
  const out = result.structuredContent as Blame;
  assert.deepEqual(out.blame.map((b) => [b.startLine, b.endLine, b.commitId, b.author.name]), [
    [1, 2, SAM, "sam.lee"],
    [3, 3, JANE, "jane.doe"],
    [4, 6, SAM, "sam.lee"],
  ]);
  assert.deepEqual(out.blame[1], {
    startLine: 3,
    endLine: 3,
    commitId: JANE,
    displayCommitId: "1f0e2d3c4b5",
    author: { name: "jane.doe", emailAddress: "jane.doe@example.com", displayName: "Jane Doe" },
    authorTimestamp: "2024-11-27T09:33:20Z",
  });
  assert.equal(out.isLastPage, true);
  assert.deepEqual(h.fixture.requests[0]?.query, {
    blame: "true",
    noContent: "true",
    start: "0",
    limit: "1000",
  });
});

Deno.test("get_file_blame of a line range asks for those lines and clips runs to them", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_blame",
    arguments: { ...APP, at: "main", start_line: 2, end_line: 5 },
  });
  const out = result.structuredContent as Blame;
  assert.deepEqual(out.blame.map((b) => [b.startLine, b.endLine]), [[2, 2], [3, 3], [4, 5]]);
  assert.deepEqual(h.fixture.requests[0]?.query, {
    at: "main",
    blame: "true",
    noContent: "true",
    start: "1",
    limit: "4",
  });
});

Deno.test("get_file_blame reads the bare array servers before 7.0 send, and tells the file's end by the lines covered", async () => {
  const page = JSON.parse(readFixture("source/blame-app-ts.json")) as { values: unknown[] };
  await using h = await connect({
    routes: [{ method: "GET", path: `${REPO}/browse/src/app.ts`, body: page.values }],
  });
  const short = await h.client.callTool({ name: "get_file_blame", arguments: APP });
  assert.equal((short.structuredContent as Blame).blame.length, 3);
  assert.equal((short.structuredContent as Blame).isLastPage, true, "6 lines of 1000 asked for");
  const exact = await h.client.callTool({
    name: "get_file_blame",
    arguments: { ...APP, start_line: 1, end_line: 6 },
  });
  assert.equal(
    (exact.structuredContent as Blame).isLastPage,
    false,
    "all 6 asked for: more may follow",
  );
});

for (const [start_line, end_line] of [[5, 4], [1, 1001]]) {
  Deno.test(`get_file_blame refuses lines ${start_line}-${end_line} before any request, naming end_line`, async () => {
    await using h = await connect({ routes: source.routes });
    const result = await h.client.callTool({
      name: "get_file_blame",
      arguments: { ...APP, start_line, end_line },
    });
    assert.equal(result.isError, true);
    assert.match(
      firstText(result),
      /end_line: must be at least start_line and less than 1000 lines after it/,
    );
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("get_file_blame of a missing file names it and the ref", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/browse/src/nope.ts`,
      status: 404,
      fixture: "errors/path-not-found.json",
    }],
  });
  const result = await h.client.callTool({
    name: "get_file_blame",
    arguments: { ...APP, path: "src/nope.ts", at: "main" },
  });
  assert.match(firstText(result), /^Cannot blame "src\/nope\.ts" at "main" in PROJ\/web: .*404/);
});

Deno.test("get_file_history lists the file's commits following renames, page by page", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_history",
    arguments: { ...APP, limit: 3 },
  });
  const out = result.structuredContent as {
    commits: { id: string }[];
    isLastPage: boolean;
    nextPageStart?: number;
  };
  assert.deepEqual(out.commits.map((c) => c.id), [HEAD, JANE, SAM]);
  assert.deepEqual([out.isLastPage, out.nextPageStart], [false, 3]);
  assert.deepEqual(h.fixture.requests[0]?.query, {
    path: "src/app.ts",
    followRenames: "true",
    start: "0",
    limit: "3",
  });
});

Deno.test("list_last_modified resolves the ref first, then gives each file from the root with its last commit", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "list_last_modified",
    arguments: { project: "PROJ", repo: "web", path: "src/lib" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const { files } = result.structuredContent as {
    files: { path: string; commit: { id: string; message: string } }[];
  };
  assert.deepEqual(files.map((f) => [f.path, f.commit.id, f.commit.message]), [
    ["src/lib/format.ts", SAM, "Cache rendered pages"],
    ["src/lib/parse.ts", JANE, "Fix the footer link on the pricing page"],
  ]);
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    [`${REPO}/commits`, { limit: "1" }],
    [`${REPO}/last-modified/src/lib`, { at: HEAD }],
  ]);
});

Deno.test("list_last_modified without path lists the repository root", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/last-modified`,
      fixture: "source/last-modified-src-lib.json",
    }],
  });
  const result = await h.client.callTool({
    name: "list_last_modified",
    arguments: { project: "PROJ", repo: "web", at: HEAD },
  });
  const { files } = result.structuredContent as { files: { path: string }[] };
  assert.deepEqual(files.map((f) => f.path), ["format.ts", "parse.ts"]);
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    [`${REPO}/last-modified`, { at: HEAD }],
  ]);
});
