/**
 * src/bitbucket/diff/read.ts, the one flow every diff tool answers with, as
 * get_pr_diff shows it: the whole diff as the text block, a cut at max_bytes
 * on a line end naming the files left out or cut short (from the changes
 * listing), one file picked by its new or old path, and a path the diff
 * does not change. get_commit_diff and get_compare_diff (tests/tools/commits/commits_test.ts)
 * answer through the same flow.
 */
import assert from "node:assert/strict";
import { PR, pullRequests } from "../../../testing/cases/pull_requests.ts";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { ARGS, call, DiffPayload, payload, seen } from "../../support/pr_calls.ts";

const DIFF = readFixture("pull_requests/pr-42.diff");

Deno.test("get_pr_diff's text block is the unified diff itself", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const result = await h.client.callTool({ name: "get_pr_diff", arguments: ARGS });
  assert.equal(firstText(result), DIFF);
  assert.deepEqual(result.structuredContent, { diff: DIFF, truncated: false });
  assert.deepEqual(seen(h), [{ method: "GET", path: `${PR}.diff`, query: {} }]);
  // Bitbucket serves the raw diff as text/plain only; a JSON-only Accept would be refused.
  assert.match(h.fixture.requests[0]?.headers.accept ?? "", /\*\/\*|text\/plain/);
});

const cuts: { max_bytes: number; omitted: string[] | undefined }[] = [
  // The diff holds docs/login.md (322 bytes), src/login/form.ts (730), src/login/validate.ts (539).
  { max_bytes: 1000, omitted: ["src/login/form.ts", "src/login/validate.ts"] },
  { max_bytes: 1052, omitted: ["src/login/validate.ts"] }, // cut exactly after form.ts
  { max_bytes: 1590, omitted: ["src/login/validate.ts"] }, // its last line does not fit
  { max_bytes: 1591, omitted: undefined }, // fits exactly
];
for (const c of cuts) {
  Deno.test(`get_pr_diff cut at ${c.max_bytes} bytes lists the files left out or cut short`, async () => {
    await using h = await connect({ routes: pullRequests.routes });
    const result = await h.client.callTool({
      name: "get_pr_diff",
      arguments: { ...ARGS, max_bytes: c.max_bytes },
    });
    const out = DiffPayload.parse(result.structuredContent);
    assert.equal(out.truncated, c.omitted !== undefined);
    assert.deepEqual(out.omittedFiles, c.omitted);
    const bytes = new TextEncoder().encode(out.diff).length;
    assert.ok(bytes <= c.max_bytes, `${bytes} bytes returned`);
    assert.ok(DIFF.startsWith(out.diff), "a prefix of the diff");
    assert.ok(out.diff === "" || out.diff.endsWith("\n"), "cut at a line end");
    if (c.omitted) {
      assert.match(firstText(result), /\[diff cut at max_bytes; left out or cut short: /);
      assert.ok(firstText(result).includes(c.omitted.join(", ")));
      assert.deepEqual(seen(h).map((r) => r.path), [`${PR}.diff`, `${PR}/changes`]);
    } else {
      assert.equal(firstText(result), DIFF);
    }
  });
}

const oneFile: { path: string; starts: string; truncated?: number }[] = [
  {
    path: "src/login/form.ts",
    starts: "diff --git src://src/login/form.ts dst://src/login/form.ts\n",
  },
  { path: "docs/auth.md", starts: "diff --git src://docs/auth.md dst://docs/login.md\n" },
  { path: "docs/login.md", starts: "diff --git src://docs/auth.md dst://docs/login.md\n" },
  {
    path: "src/login/validate.ts",
    starts: "diff --git src://src/login/validate.ts dst://src/login/validate.ts\n",
  },
  {
    path: "src/login/form.ts",
    starts: "diff --git src://src/login/form.ts dst://src/login/form.ts\n",
    truncated: 400,
  },
];
for (const c of oneFile) {
  Deno.test(
    `get_pr_diff with path ${c.path}${
      c.truncated ? ` cut at ${c.truncated}` : ""
    } shows that file only`,
    async () => {
      await using h = await connect({ routes: pullRequests.routes });
      const out = await payload(h, "get_pr_diff", DiffPayload, {
        ...ARGS,
        path: c.path,
        ...(c.truncated ? { max_bytes: c.truncated } : {}),
      });
      assert.ok(out.diff.startsWith(c.starts));
      assert.equal(out.diff.match(/^diff --git /gm)?.length, 1, "one file");
      assert.ok(DIFF.includes(out.diff));
      assert.equal(out.truncated, c.truncated !== undefined);
      if (c.truncated) assert.deepEqual(out.omittedFiles, [c.path]);
      else {assert.ok(
          out.diff.endsWith("\n") &&
            DIFF.split(c.starts)[1]?.startsWith(out.diff.slice(c.starts.length)),
        );}
    },
  );
}

Deno.test("get_pr_diff of a file the pull request does not change says so, with a hint", async () => {
  await using h = await connect({ routes: pullRequests.routes });
  const { isError, text } = await call(h, "get_pr_diff", { ...ARGS, path: "README.md" });
  assert.ok(isError);
  assert.match(text, /"README\.md".*does not change it.*list_pr_changes/);
});

/**
 * The PR's changes listing made `extra` files longer than the recorded one,
 * paged as Bitbucket pages it (`start`/`limit`, `nextPageStart`): the recorded
 * changes first, then `gen/file-<n>.ts`.
 */
function longChanges(extra: number) {
  const recorded = JSON.parse(readFixture("pull_requests/changes.json"));
  const all = [
    ...recorded.values,
    ...Array.from({ length: extra }, (_, n) => ({
      ...recorded.values[0],
      path: { components: ["gen", `file-${n}.ts`], parent: "gen", name: `file-${n}.ts` },
      srcPath: undefined,
      type: "ADD",
    })),
  ];
  return {
    method: "GET" as const,
    path: `${PR}/changes`,
    respond: (r: { query: Record<string, string> }) => {
      const start = Number(r.query.start ?? 0);
      const limit = Number(r.query.limit ?? 25);
      const values = all.slice(start, start + limit);
      const isLastPage = start + values.length >= all.length;
      return {
        ...recorded,
        values,
        size: values.length,
        start,
        limit,
        isLastPage,
        ...(isLastPage ? {} : { nextPageStart: start + values.length }),
      };
    },
  };
}

Deno.test("get_pr_diff cut over more changed files than one listing page names every file left out", async () => {
  await using h = await connect({ routes: [longChanges(2500), ...pullRequests.routes] });
  const result = await h.client.callTool({
    name: "get_pr_diff",
    arguments: { ...ARGS, max_bytes: 1000 },
  });
  const out = result.structuredContent as { omittedFiles: string[]; omittedFilesComplete?: false };
  assert.equal(out.omittedFiles.length, 2 + 2500, "all but docs/login.md, across three pages");
  assert.equal(out.omittedFiles.at(-1), "gen/file-2499.ts");
  assert.equal(out.omittedFilesComplete, undefined, "the list is whole");
  assert.ok(firstText(result).includes("gen/file-2499.ts"));
  assert.equal(seen(h).filter((r) => r.path === `${PR}/changes`).length, 3);
});

Deno.test("get_pr_diff cut over more changed files than it reads says its list of left-out files is partial", async () => {
  await using h = await connect({ routes: [longChanges(10_500), ...pullRequests.routes] });
  const result = await h.client.callTool({
    name: "get_pr_diff",
    arguments: { ...ARGS, max_bytes: 1000 },
  });
  const out = result.structuredContent as { omittedFiles: string[]; omittedFilesComplete?: false };
  assert.equal(out.omittedFilesComplete, false);
  assert.equal(out.omittedFiles.length, 10_000 - 1, "the first 10,000 changes, but docs/login.md");
  assert.match(firstText(result), /gen\/file-9996\.ts, and more not listed\. Ask for one file/);
  assert.equal(seen(h).filter((r) => r.path === `${PR}/changes`).length, 10, "ten pages, no more");
});
