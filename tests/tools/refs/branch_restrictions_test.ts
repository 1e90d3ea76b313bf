import assert from "node:assert/strict";
import { refs, RESTRICTIONS } from "../../../testing/cases/refs.ts";
import { connect, firstText } from "../../../testing/harness.ts";

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
