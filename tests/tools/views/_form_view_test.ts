/**
 * The pull request form's data as `show` returns it: the model's draft, the
 * repository's branches, the default reviewers of the branches chosen with the
 * conditions requiring their approval, what the server's version allows; and
 * that showing it writes nothing.
 */
import assert from "node:assert/strict";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { ALL_ROUTES } from "../../../testing/cases/mod.ts";
import { PR_42_VIEW } from "../../../testing/cases/views.ts";
import { versionRoute } from "../../../testing/cases/server_version.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { matches } from "../../../src/tools/views/_default_reviewers.ts";

type Form = {
  pullRequest?: { id: number; version: number };
  fields: {
    title: string;
    description: string;
    fromBranch: string;
    toBranch: string;
    reviewers: { name: string; status?: string; isDefault?: boolean }[];
    draft: boolean;
  };
  branches?: { names: string[]; defaultBranch?: string; complete: boolean };
  defaults?: {
    reviewers: { name: string }[];
    conditions?: { reviewers: string[]; requiredApprovals: number }[];
  };
  canDraft: boolean;
  findUsers: boolean;
};

const DRAFT = {
  kind: "pull_request_form",
  project: "PROJ",
  repo: "web",
  title: "Fix the login typo",
  description: "One word.",
  from_branch: "hotfix/typo",
  reviewers: ["jdoe"],
  draft: true,
};

async function form(args: Record<string, unknown>, routes = ALL_ROUTES) {
  const h = await connect({ routes, apps: true });
  const result = await h.client.callTool({ name: "show", arguments: args });
  return { h, result, view: (result.structuredContent as { view?: Form } | undefined)?.view };
}

Deno.test("form: the model's draft with the default reviewers of its branches, the branches to choose from, and nothing written", async () => {
  const { h, result, view } = await form(DRAFT);
  await using _ = h;
  assert.ok(view, firstText(result));
  assert.equal(view.pullRequest, undefined, "a new pull request");
  assert.deepEqual(
    [view.fields.title, view.fields.description, view.fields.fromBranch, view.fields.draft],
    [DRAFT.title, DRAFT.description, DRAFT.from_branch, true],
  );
  const branches = JSON.parse(readFixture("refs/branches.json")) as {
    values: { displayId: string; isDefault?: boolean }[];
  };
  const main = branches.values.find((b) => b.isDefault)!.displayId;
  assert.equal(view.fields.toBranch, main, "into the default branch unless drafted");
  assert.equal(view.branches?.defaultBranch, main);
  for (const b of branches.values) assert.ok(view.branches?.names.includes(b.displayId));
  // The default reviewers are what get_default_reviewers says for these branches, marked as such.
  const { structuredContent } = await h.client.callTool({
    name: "get_default_reviewers",
    arguments: { project: "PROJ", repo: "web", from_ref: DRAFT.from_branch, to_ref: main },
  });
  const defaults = (structuredContent as { reviewers: { name: string }[] }).reviewers;
  assert.ok(defaults.length > 0);
  assert.deepEqual(view.defaults?.reviewers.map((r) => r.name), defaults.map((r) => r.name));
  assert.deepEqual(
    view.fields.reviewers.map((r) => [r.name, r.isDefault ?? false]),
    [["jdoe", false], ...defaults.map((r) => [r.name, true])],
    "the drafted reviewer first, then the defaults",
  );
  // The conditions that apply: the one into the default branch, not the one into release/*.
  const conditions = JSON.parse(readFixture("pull_requests/default-reviewer-conditions.json")) as {
    targetRefMatcher: { id: string; displayId: string; type: { id: string } };
    reviewers: { name: string }[];
    requiredApprovals: number;
  }[];
  const into = conditions.filter((c) => matches(c.targetRefMatcher, main) !== false);
  assert.ok(into.length > 0 && into.length < conditions.length, "the fixture has both kinds");
  assert.deepEqual(
    view.defaults?.conditions,
    into.map((c) => ({
      reviewers: c.reviewers.map((u) => u.name),
      requiredApprovals: c.requiredApprovals,
    })),
  );
  assert.equal(view.canDraft, true);
  assert.equal(view.findUsers, true);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), [], "nothing written");
  assert.match(firstText(result), /nothing is written unless they submit it/);
});

Deno.test("form: an edit starts from the pull request as it is, the draft's changes over it", async () => {
  const { h, view } = await form({ ...PR_42_VIEW, kind: "pull_request_form", title: "Shorter" });
  await using _ = h;
  const pr = JSON.parse(readFixture("pull_requests/pr-42.json"));
  assert.deepEqual(view?.pullRequest && [view.pullRequest.id, view.pullRequest.version], [
    pr.id,
    pr.version,
  ]);
  assert.equal(view?.fields.title, "Shorter");
  assert.equal(view?.fields.description, pr.description);
  assert.equal(view?.fields.fromBranch, pr.fromRef.displayId);
  assert.deepEqual(
    view?.fields.reviewers.map((r) => [r.name, r.status]),
    pr.reviewers.map((r: { user: { name: string }; status: string }) => [r.user.name, r.status]),
  );
  assert.equal(view?.defaults, undefined, "an existing pull request keeps its reviewers");
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
});

Deno.test("form: a source branch an existing pull request cannot change is refused, naming from_branch", async () => {
  const { h, result } = await form({
    ...PR_42_VIEW,
    kind: "pull_request_form",
    from_branch: "release/2.0",
  });
  await using _ = h;
  assert.equal(result.isError, true);
  assert.match(firstText(result), /from_branch/);
});

Deno.test("form: on a server older than 8.18 it offers no draft, whatever the model drafted", async () => {
  const { h, view } = await form(DRAFT, [versionRoute("8.17.0"), ...ALL_ROUTES]);
  await using _ = h;
  assert.equal(view?.canDraft, false);
  assert.equal(view?.fields.draft, false);
});

Deno.test("form: Bitbucket's branch matchers as the refs alone tell them", () => {
  const type = (id: string) => ({ id });
  assert.equal(matches(undefined, "main"), true);
  assert.equal(matches({ id: "ANY_REF_MATCHER_ID", type: type("ANY_REF") }, "x"), true);
  assert.equal(matches({ id: "refs/heads/main", type: type("BRANCH") }, "main"), true);
  assert.equal(matches({ id: "refs/heads/main", type: type("BRANCH") }, "mainline"), false);
  assert.equal(matches({ id: "release/*", type: type("PATTERN") }, "release/2.0"), true);
  assert.equal(matches({ id: "release/*", type: type("PATTERN") }, "main"), false);
  assert.equal(matches({ id: "a.b?", type: type("PATTERN") }, "axbc"), false, "dots are dots");
  assert.equal(matches({ id: "BUGFIX", type: type("MODEL_CATEGORY") }, "bugfix/x"), undefined);
});
