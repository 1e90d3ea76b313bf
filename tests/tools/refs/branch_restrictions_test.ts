import assert from "node:assert/strict";
import { refs, RESTRICTIONS } from "../../../testing/cases/refs.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { MAX_RESTRICTIONS } from "../../../src/tools/refs/branch_restrictions.ts";

const WEB = { project: "PROJ", repo: "web" };

type Restrictions = {
  restrictions: {
    id: number;
    type: string;
    matcher: { type: string; id: string; displayId: string };
    scope?: string;
    exemptUsers: string[];
    exemptGroups: string[];
  }[];
  isLastPage: boolean;
};

Deno.test("list_branch_restrictions gives every restriction with its matcher, scope and exemptions", async () => {
  await using h = await connect({ routes: refs.routes });
  const result = await h.client.callTool({ name: "list_branch_restrictions", arguments: WEB });
  assert.notEqual(result.isError, true, firstText(result));
  const out = result.structuredContent as Restrictions;
  assert.deepEqual(out.restrictions.map((r) => r.id), [839, 840, 841, 842]);
  assert.deepEqual(out.restrictions[1], {
    id: 840,
    type: "no-deletes",
    matcher: { type: "PATTERN", id: "release/", displayId: "release/" },
    scope: "PROJECT",
    exemptUsers: ["bwilson"],
    exemptGroups: [],
  });
  assert.equal(out.isLastPage, true);
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    [RESTRICTIONS, { start: "0", limit: "1000" }],
  ]);
});

const byBranch: [string, number[]][] = [
  ["main", [839, 841]], // its own branch matcher; the branching-model one may apply
  ["release/2.0", [840, 841]], // the pattern release/ (release/**)
  ["refs/heads/hotfix/typo", [841, 842]], // hotfix/*
  ["feature/login", [841]],
];
for (const [branch, ids] of byBranch) {
  Deno.test(`list_branch_restrictions for ${branch} keeps those that may apply to it`, async () => {
    await using h = await connect({ routes: refs.routes });
    const result = await h.client.callTool({
      name: "list_branch_restrictions",
      arguments: { ...WEB, branch },
    });
    const out = result.structuredContent as Restrictions;
    assert.deepEqual(out.restrictions.map((r) => r.id), ids);
  });
}

Deno.test("list_branch_restrictions refused for a non-admin says only repository admins may see them", async () => {
  await using h = await connect({
    routes: [{ method: "GET", path: RESTRICTIONS, status: 401, fixture: "errors/forbidden.json" }],
  });
  const result = await h.client.callTool({ name: "list_branch_restrictions", arguments: WEB });
  assert.equal(result.isError, true);
  const text = firstText(result);
  assert.match(
    text,
    /^Cannot list the branch permissions of PROJ\/web: GET .*restrictions\?start=0&limit=1000 failed: 401 Unauthorized: You are not permitted to access this resource/,
  );
  assert.match(
    text,
    /hint: Bitbucket shows branch permissions only to repository admins \(REPO_ADMIN\)/,
  );
});

/** A restrictions listing of `count` branch matchers on branches `b0`, `b1`, …, paged as Bitbucket pages. */
function manyRestrictions(count: number) {
  const recorded = JSON.parse(readFixture("refs/branch-restrictions.json"));
  const template = recorded.values[0];
  return {
    method: "GET" as const,
    path: RESTRICTIONS,
    respond: (r: { query: Record<string, string> }) => {
      const start = Number(r.query.start ?? 0);
      const limit = Number(r.query.limit ?? 25);
      const end = Math.min(count, start + limit);
      const values = Array.from({ length: end - start }, (_, i) => ({
        ...template,
        id: start + i,
        matcher: {
          ...template.matcher,
          id: `refs/heads/b${start + i}`,
          displayId: `b${start + i}`,
        },
      }));
      const isLastPage = end >= count;
      return {
        values,
        size: values.length,
        start,
        limit,
        isLastPage,
        ...(isLastPage ? {} : { nextPageStart: end }),
      };
    },
  };
}

Deno.test("list_branch_restrictions reads every page, so a branch's permission past the first is found", async () => {
  await using h = await connect({ routes: [manyRestrictions(2500)] });
  const all = await h.client.callTool({ name: "list_branch_restrictions", arguments: WEB });
  const out = all.structuredContent as Restrictions & { note?: string };
  assert.equal(out.restrictions.length, 2500);
  assert.equal(out.isLastPage, true);
  assert.equal(out.note, undefined);
  const one = await h.client.callTool({
    name: "list_branch_restrictions",
    arguments: { ...WEB, branch: "b2400" },
  });
  assert.deepEqual((one.structuredContent as Restrictions).restrictions.map((r) => r.id), [2400]);
});

Deno.test("list_branch_restrictions past its bound says what was left unread", async () => {
  await using h = await connect({ routes: [manyRestrictions(MAX_RESTRICTIONS + 1)] });
  const result = await h.client.callTool({
    name: "list_branch_restrictions",
    arguments: { ...WEB, branch: "b1" },
  });
  const out = result.structuredContent as Restrictions & { note?: string };
  assert.deepEqual(out.restrictions.map((r) => r.id), [1]);
  assert.equal(out.isLastPage, false);
  assert.match(out.note ?? "", /first 10000 branch permissions were read; more exist/);
  assert.match(firstText(result), /apply to \\"b1\\" may be missing/);
  assert.equal(h.fixture.requests.length, 10);
});

Deno.test("list_branch_restrictions ending exactly at its bound is complete", async () => {
  await using h = await connect({ routes: [manyRestrictions(MAX_RESTRICTIONS)] });
  const result = await h.client.callTool({ name: "list_branch_restrictions", arguments: WEB });
  const out = result.structuredContent as Restrictions & { note?: string };
  assert.equal(out.restrictions.length, MAX_RESTRICTIONS);
  assert.equal(out.isLastPage, true);
  assert.equal(out.note, undefined);
});
