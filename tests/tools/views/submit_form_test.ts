/**
 * submit_pr_form, the pull request form's own submit: it writes exactly what
 * the person submitted, asks nothing more, goes through the same policy as
 * every tool (audit, confinement, selection), and its audit lines say the
 * call came from a view.
 */
import assert from "node:assert/strict";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";
import { ALL_ROUTES } from "../../../testing/cases/mod.ts";
import { PR, REPO, WEB } from "../../../testing/cases/pull_requests.ts";
import { toolArguments } from "../../../testing/cases/mod.ts";
import { connect, type ConnectOptions, firstText } from "../../../testing/harness.ts";
import { Confinement } from "../../../src/policy/confinement.ts";
import type { AuditLog } from "../../../src/policy/audit.ts";
import { SUBMIT_FORM } from "../../../src/tools/views/submit_form.ts";

const CREATE = toolArguments[SUBMIT_FORM]!.args;
const PR_42 = JSON.parse(readFixture("pull_requests/pr-42.json"));

/** A server whose every call is recorded in `lines`, and whose person is never asked. */
async function recorded(options: ConnectOptions = {}) {
  const lines: Record<string, unknown>[] = [];
  const asked: unknown[] = [];
  const audit: AuditLog = {
    sink: (line) => lines.push(JSON.parse(line)),
    failure: "refuse",
    warn: () => {},
  };
  const h = await connect({
    routes: ALL_ROUTES,
    apps: true,
    audit,
    elicit: (request) => {
      asked.push(request.params);
      return { action: "decline" };
    },
    ...options,
  });
  return { h, lines, asked, writes: () => h.fixture.requests.filter((r) => r.method !== "GET") };
}

Deno.test("submit_pr_form: creates the pull request as submitted, asks nothing, and its audit lines say a view made the call", async () => {
  const { h, lines, asked, writes } = await recorded();
  await using _ = h;
  const result = await h.client.callTool({ name: SUBMIT_FORM, arguments: CREATE });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(asked, [], "the press was the decision");
  assert.deepEqual(writes().map((r) => [r.method, r.path, r.body]), [[
    "POST",
    `${REPO}/pull-requests`,
    {
      title: CREATE.title,
      description: CREATE.description,
      fromRef: { id: `refs/heads/${CREATE.from_branch}`, repository: WEB },
      toRef: { id: `refs/heads/${CREATE.to_branch}`, repository: WEB },
      reviewers: (CREATE.reviewers as string[]).map((name) => ({ user: { name } })),
    },
  ]], "no default reviewer added behind the person's back");
  assert.deepEqual(lines.map((l) => [l.event, l.tool, l.via]), [
    ["started", SUBMIT_FORM, "view"],
    ["call", SUBMIT_FORM, "view"],
  ]);
  assert.equal(lines[1]!.confirmation, "not needed");
  assert.deepEqual(lines[1]!.outcome, { result: "ok" });
  // A tool the model calls is recorded without it.
  await h.client.callTool({
    name: "get_pull_request",
    arguments: { project: "PROJ", repo: "web", pr_id: 42 },
  });
  assert.equal(lines.at(-1)!.via, undefined);
});

Deno.test("submit_pr_form: an update sends the changed fields over the pull request as read, at the version the form showed", async () => {
  const { h, writes } = await recorded();
  await using _ = h;
  const base = { project: "PROJ", repo: "web", action: "update", pr_id: PR_42.id };
  const stale = await h.client.callTool({
    name: SUBMIT_FORM,
    arguments: { ...base, version: PR_42.version - 1, title: "Shorter" },
  });
  assert.equal(stale.isError, true);
  assert.match(firstText(stale), /changed since the form was drawn/);
  assert.deepEqual(writes(), [], "a stale form writes nothing");
  const result = await h.client.callTool({
    name: SUBMIT_FORM,
    arguments: { ...base, version: PR_42.version, title: "Shorter", reviewers: ["asmith"] },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(writes().map((r) => [r.method, r.path, r.body]), [[
    "PUT",
    PR,
    {
      version: PR_42.version,
      title: "Shorter",
      description: PR_42.description,
      reviewers: [{ user: { name: "asmith" } }],
      toRef: { id: PR_42.toRef.id, repository: WEB },
      draft: PR_42.draft ?? false,
    },
  ]]);
});

Deno.test("submit_pr_form: a reviewer Bitbucket refuses is named, and nothing else is tried", async () => {
  const invalid = JSON.parse(readFixture("errors/invalid-reviewers.json"));
  const name: string = invalid.errors[0].reviewerErrors[0].context;
  const { h, writes } = await recorded({
    routes: [
      { method: "POST", path: `${REPO}/pull-requests`, status: 409, body: invalid },
      ...ALL_ROUTES,
    ],
  });
  await using _ = h;
  const result = await h.client.callTool({
    name: SUBMIT_FORM,
    arguments: { ...CREATE, reviewers: [name] },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), new RegExp(`reviewer\\(s\\) ${RegExp.escape(name)}`));
  assert.equal(writes().length, 1, "one attempt");
});

Deno.test("submit_pr_form: a client without MCP Apps has no view to submit from: refused, nothing sent", async () => {
  const { h, writes } = await recorded({ apps: false });
  await using _ = h;
  const { tools } = await h.client.listTools();
  assert.ok(!tools.some((t) => t.name === SUBMIT_FORM), "not listed to it");
  const result = await h.client.callTool({ name: SUBMIT_FORM, arguments: CREATE });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /only a view submits one/);
  assert.deepEqual(writes(), []);
});

Deno.test("submit_pr_form: confined like every tool, and only the actions whose tool is exposed", async () => {
  const confinement = new Confinement([], [{ project: "OTHER", repo: "x" }]);
  const { h, writes } = await recorded({ confinement });
  await using _ = h;
  const result = await h.client.callTool({ name: SUBMIT_FORM, arguments: CREATE });
  assert.equal(result.isError, true, "PROJ/web is outside the confinement");
  assert.deepEqual(writes(), []);
  const { h: narrow } = await recorded({ selection: { exclude: ["create_pull_request"] } });
  await using __ = narrow;
  const { tools } = await narrow.client.listTools();
  const submit = tools.find((t) => t.name === SUBMIT_FORM);
  const action = (submit?.inputSchema.properties as Record<string, { enum?: string[] }>).action;
  assert.deepEqual(action?.enum, ["update"]);
  const refused = await narrow.client.callTool({ name: SUBMIT_FORM, arguments: CREATE });
  assert.equal(refused.isError, true);
  assert.match(firstText(refused), /action/);
});
