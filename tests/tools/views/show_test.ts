import assert from "node:assert/strict";
import { ALL_ROUTES } from "../../../testing/cases/mod.ts";
import { PR_42_VIEW } from "../../../testing/cases/views.ts";
import { connect, type ConnectOptions, firstText } from "../../../testing/harness.ts";
import { Confinement } from "../../../src/policy/confinement.ts";
import { VIEW_DIFF_BYTES } from "../../../src/tools/views/_diff_view.ts";
import { KIND_NEEDS, NOTHING_SHOWN } from "../../../src/tools/views/show.ts";
import { SUBMIT_FORM } from "../../../src/tools/views/submit_form.ts";
import { KINDS } from "../../../src/tools/views/_view_shape.ts";
import { APPS_MIME, VIEW_META, VIEW_URI, VIEW_VERSION } from "../../../src/tools/kit/apps.ts";
import { VIEW_CSP } from "../../../src/resources/view_page.ts";
import { PR } from "../../../testing/cases/pull_requests.ts";
import { readFixture } from "../../../testing/fixture_bitbucket.ts";

type Tool = { name: string; inputSchema: Record<string, unknown>; _meta?: Record<string, unknown> };
type Payload = Record<string, unknown>;

const ERAS = ["legacy", "modern"] as const;

async function listed(options: ConnectOptions): Promise<Tool[]> {
  await using h = await connect(options);
  return (await h.client.listTools()).tools as Tool[];
}

/** The kinds `show` publishes, or undefined when it is not listed. */
function kindsOf(tools: Tool[]): string[] | undefined {
  const show = tools.find((t) => t.name === "show");
  const props = show?.inputSchema.properties as Record<string, { enum?: string[] }> | undefined;
  return show ? props?.kind?.enum : undefined;
}

/** A tool's structured payload, failing on an error result. */
async function call(
  h: Awaited<ReturnType<typeof connect>>,
  name: string,
  args: Payload,
): Promise<Payload> {
  const result = await h.client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, firstText(result));
  return result.structuredContent as Payload;
}

for (const era of ERAS) {
  Deno.test(`show (${era}): a client declaring MCP Apps lists show with its page, and refresh_view and submit_pr_form for the page only`, async () => {
    const tools = await listed({ apps: true, era });
    const show = tools.find((t) => t.name === "show");
    const refresh = tools.find((t) => t.name === "refresh_view");
    assert.deepEqual(show?._meta?.ui, { resourceUri: VIEW_URI });
    assert.equal(show?._meta?.["ui/resourceUri"], VIEW_URI, "the deprecated flat key too");
    assert.deepEqual(refresh?._meta?.ui, { resourceUri: VIEW_URI, visibility: ["app"] });
    const submit = tools.find((t) => t.name === SUBMIT_FORM);
    assert.deepEqual(submit?._meta?.ui, { resourceUri: VIEW_URI, visibility: ["app"] });
    assert.deepEqual(kindsOf(tools), [...KINDS]);
  });

  Deno.test(`show (${era}): the page is a resources/read away, as MCP Apps HTML with an empty CSP`, async () => {
    await using h = await connect({ apps: true, era });
    const { contents } = await h.client.readResource({ uri: VIEW_URI });
    const [page] = contents as { uri: string; mimeType?: string; text?: string; _meta?: Payload }[];
    assert.equal(page?.uri, VIEW_URI);
    assert.equal(page?.mimeType, APPS_MIME);
    assert.match(page?.text ?? "", /^<!doctype html>/i);
    const ui = page?._meta?.ui as { csp?: Record<string, unknown[]> } | undefined;
    assert.deepEqual(ui?.csp, VIEW_CSP);
    for (const [key, domains] of Object.entries(ui?.csp ?? {})) assert.deepEqual(domains, [], key);
    assert.deepEqual(h.fixture.requests, [], "the page reads nothing from Bitbucket");
  });

  Deno.test(`show (${era}): a client without MCP Apps sees no view tool, and a call fetches nothing`, async () => {
    await using h = await connect({ routes: ALL_ROUTES, era });
    const { tools } = await h.client.listTools();
    const views = ["show", "refresh_view", SUBMIT_FORM];
    assert.deepEqual(tools.filter((t) => views.includes(t.name)), [], "no view tool at all");
    const result = await h.client.callTool({
      name: "show",
      arguments: { kind: "pull_request", ...PR_42_VIEW },
    });
    assert.notEqual(result.isError, true);
    assert.equal(firstText(result), NOTHING_SHOWN);
    assert.deepEqual(result.structuredContent, { shown: false });
    assert.deepEqual(h.fixture.requests, [], "nothing was fetched");
  });
}

Deno.test("show: a pull_request view holds what the data tools say of #42, and one line for the model", async () => {
  await using h = await connect({ routes: ALL_ROUTES, apps: true });
  const result = await h.client.callTool({
    name: "show",
    arguments: { kind: "pull_request", ...PR_42_VIEW },
  });
  const { view } = result.structuredContent as { view: Payload };
  assert.equal(view.version, VIEW_VERSION);
  assert.deepEqual(result._meta?.[VIEW_META], { version: VIEW_VERSION, kind: "pull_request" });
  assert.equal(
    result._meta?.["bitbucket-mcp/untrusted"],
    true,
    "marked as Bitbucket's like every tool",
  );
  assert.doesNotMatch(firstText(result), /\n/, "one line");
  assert.equal(view.origin, new URL(h.fixture.url).origin);
  const { pullRequest } = await call(h, "get_pull_request", PR_42_VIEW);
  assert.deepEqual(view.pullRequest, pullRequest);
  const head = (pullRequest as { fromRef: { latestCommit: string } }).fromRef.latestCommit;
  const { buildStatuses } = await call(h, "get_build_status", { commit_id: head });
  assert.deepEqual(
    (view.builds as { key: string; state: string }[]).map((b) => [b.key, b.state]),
    (buildStatuses as { key: string; state: string }[]).map((b) => [b.key, b.state]),
  );
  const { mergeStatus } = await call(h, "get_pr_merge_status", PR_42_VIEW) as {
    mergeStatus: { canMerge: boolean; vetoes: { summary?: string; summaryMessage?: string }[] };
  };
  const merge = view.merge as { canMerge: boolean; vetoes: unknown[] };
  assert.equal(merge.canMerge, mergeStatus.canMerge);
  assert.equal(merge.vetoes.length, mergeStatus.vetoes.length);
  const { tasks } = await call(h, "list_pr_tasks", { ...PR_42_VIEW, limit: 100 });
  assert.deepEqual(view.tasks, { open: (tasks as unknown[]).length, complete: true });
});

Deno.test("show: a diff view holds #42's files and its open inline threads at their lines", async () => {
  await using h = await connect({ routes: ALL_ROUTES, apps: true });
  const { view } = await call(h, "show", { kind: "diff", ...PR_42_VIEW }) as {
    view: {
      files: {
        path: string;
        hunks: { lines: { type: string; old?: number; new?: number }[] }[];
        threads: { id: number; line?: number }[];
      }[];
      cut?: unknown;
    };
  };
  const { changes } = await call(h, "list_pr_changes", { ...PR_42_VIEW, limit: 100 });
  const paths = (changes as { path: string }[]).map((c) => c.path);
  assert.deepEqual(view.files.map((f) => f.path).sort(), [...paths].sort());
  assert.equal(view.cut, undefined, "a small diff is whole");
  const { comments } = await call(h, "list_pr_comments", { ...PR_42_VIEW, limit: 100 });
  const all = comments as {
    id: number;
    threadResolved: boolean;
    anchor?: { path: string; line?: number };
  }[];
  const inline = all.filter((c) => c.anchor?.line !== undefined && !c.threadResolved);
  const resolved = all.filter((c) => c.threadResolved).map((c) => c.id);
  assert.ok(resolved.length > 0, "the fixture has a resolved thread");
  const drawn = view.files.flatMap((f) => f.threads.map((t) => t.id));
  assert.deepEqual(
    drawn.filter((id) => resolved.includes(id)),
    [],
    "resolved threads are not drawn",
  );
  assert.ok(inline.length > 0, "the fixture has inline threads");
  for (const comment of inline) {
    const file = view.files.find((f) => f.path === comment.anchor?.path);
    const thread = file?.threads.find((t) => t.id === comment.id);
    assert.equal(thread?.line, comment.anchor?.line, `thread ${comment.id} at its line`);
    const lines = file!.hunks.flatMap((hunk) => hunk.lines);
    assert.ok(lines.some((l) => l.new === thread?.line || l.old === thread?.line), "a line drawn");
  }
});

Deno.test("show: a diff longer than the view's cap is cut, and the view says so", async () => {
  const file = (n: number) =>
    `diff --git a/f${n}.txt b/f${n}.txt\n--- a/f${n}.txt\n+++ b/f${n}.txt\n@@ -0,0 +1,1 @@\n+${
      "x".repeat(1000)
    }\n`;
  const count = Math.ceil(VIEW_DIFF_BYTES / 1000) + 5;
  const diff = Array.from({ length: count }, (_, n) => file(n)).join("");
  const changes = {
    values: Array.from(
      { length: count },
      (_, n) => ({ path: { toString: `f${n}.txt`, components: [`f${n}.txt`] }, type: "ADD" }),
    ),
    isLastPage: true,
    start: 0,
    size: count,
    limit: 1000,
  };
  await using h = await connect({
    apps: true,
    routes: [
      { method: "GET", path: `${PR}.diff`, body: diff, headers: { "content-type": "text/plain" } },
      { method: "GET", path: `${PR}/changes`, body: changes },
      ...ALL_ROUTES,
    ],
  });
  const result = await h.client.callTool({
    name: "show",
    arguments: { kind: "diff", ...PR_42_VIEW },
  });
  const { view } = result.structuredContent as {
    view: { files: unknown[]; cut?: { maxBytes: number; omittedFiles?: string[] } };
  };
  assert.equal(view.cut?.maxBytes, VIEW_DIFF_BYTES);
  assert.ok(view.files.length < count);
  const omitted = new Set(view.cut?.omittedFiles);
  const shown = new Set((view.files as { path: string }[]).map((f) => f.path));
  const missing = Array.from({ length: count }, (_, n) => `f${n}.txt`).filter((f) => !shown.has(f));
  assert.deepEqual(missing.filter((f) => !omitted.has(f)), [], "every file not drawn is named");
  assert.match(firstText(result), /cut/);
});

Deno.test("show: a pull_requests view lists what list_pull_requests lists", async () => {
  await using h = await connect({ routes: ALL_ROUTES, apps: true });
  const { view } = await call(h, "show", {
    kind: "pull_requests",
    project: "PROJ",
    repo: "web",
  }) as {
    view: { pullRequests: { id: number; title: string; reviewers: unknown[] }[]; state: string };
  };
  const { pullRequests } = await call(h, "list_pull_requests", {
    project: "PROJ",
    repo: "web",
  }) as {
    pullRequests: { id: number; title: string; reviewers: unknown[] }[];
  };
  assert.equal(view.state, "OPEN");
  assert.deepEqual(
    view.pullRequests.map((p) => [p.id, p.title, p.reviewers]),
    pullRequests.map((p) => [p.id, p.title, p.reviewers]),
  );
});

Deno.test("show: each kind is offered only while the data tools it needs are exposed", async () => {
  for (const [kind, needs] of Object.entries(KIND_NEEDS)) {
    for (const tool of needs) {
      const kinds = kindsOf(await listed({ apps: true, selection: { exclude: [tool] } }));
      assert.ok(kinds, `show stays while other kinds are offered (${tool} excluded)`);
      assert.ok(!kinds.includes(kind), `${kind} gone without ${tool}`);
      assert.deepEqual(
        kinds,
        KINDS.filter((k) => KIND_NEEDS[k].every((t) => t !== tool)),
      );
    }
  }
  // The views toolset alone exposes no data tool, so nothing can be shown.
  assert.equal(
    kindsOf(await listed({ apps: true, selection: { toolsets: ["views"] } })),
    undefined,
  );
  const one = await listed({
    apps: true,
    selection: { tools: ["show", ...KIND_NEEDS.pull_request] },
  });
  assert.deepEqual(kindsOf(one), ["pull_request"]);
  // Every kind but the form reads only: --read-only keeps them, and drops the form and its submit.
  const readOnly = await listed({ apps: true, selection: { readOnly: true } });
  assert.deepEqual(kindsOf(readOnly), KINDS.filter((k) => k !== "pull_request_form"));
  assert.ok(!readOnly.some((t) => t.name === SUBMIT_FORM), "the submit writes: gone too");
});

Deno.test("show: a kind not offered is refused before anything is fetched", async () => {
  await using h = await connect({
    routes: ALL_ROUTES,
    apps: true,
    selection: { exclude: [...KIND_NEEDS.diff] },
  });
  const result = await h.client.callTool({
    name: "show",
    arguments: { kind: "diff", ...PR_42_VIEW },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /kind must be one of pull_request, pull_requests/);
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("show: a section whose tool is not exposed is not drawn (builds under a confinement)", async () => {
  const confinement = new Confinement([], [{ project: "PROJ", repo: "web" }]);
  await using h = await connect({ routes: ALL_ROUTES, apps: true, confinement });
  const { view } = await call(h, "show", { kind: "pull_request", ...PR_42_VIEW }) as {
    view: Payload;
  };
  assert.equal(view.builds, undefined, "get_build_status is not exposed under a confinement");
  assert.ok(view.merge, "the merge checks are");
  assert.ok(!h.fixture.requests.some((r) => r.path.startsWith("/build-status/")));
  const outside = await h.client.callTool({
    name: "show",
    arguments: { kind: "pull_request", project: "OTHER", repo: "x", pr_id: 1 },
  });
  assert.equal(outside.isError, true, "a view outside the confinement is refused");
});

Deno.test("show: the page's approve action goes through the same confirmation as the model's call", async () => {
  const asked: string[] = [];
  await using h = await connect({
    routes: ALL_ROUTES,
    apps: true,
    elicit: (request) => {
      asked.push(String((request.params as { message?: unknown }).message));
      return { action: "decline" };
    },
  });
  // What the page's approve button sends through the host (view.js, data-action="approve").
  const result = await h.client.callTool({
    name: "submit_pr_review",
    arguments: { ...PR_42_VIEW, action: "APPROVE" },
  });
  assert.equal(asked.length, 1, "the person was asked");
  assert.match(asked[0]!, /#42/);
  assert.doesNotMatch(JSON.stringify(result.content), /APPROVED"/);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), [], "nothing was written");
});

Deno.test("refresh_view: given the view's fingerprint, answers unchanged until what is drawn changes", async () => {
  await using h = await connect({ routes: ALL_ROUTES, apps: true });
  const args = { kind: "pull_request", ...PR_42_VIEW };
  const { view } = await call(h, "show", args) as { view: { fingerprint: string } };
  assert.match(view.fingerprint, /^[0-9a-f]{16}$/);
  const same = await call(h, "refresh_view", { ...args, fingerprint: view.fingerprint });
  assert.deepEqual(same, { shown: true, unchanged: true }, "nothing to send back");
  const pr = JSON.parse(readFixture("pull_requests/pr-42.json"));
  h.fixture.prepend([{ method: "GET", path: PR, body: { ...pr, title: `${pr.title}!` } }]);
  const changed = await call(h, "refresh_view", { ...args, fingerprint: view.fingerprint }) as {
    view: { fingerprint: string; pullRequest: { title: string } };
  };
  assert.notEqual(changed.view.fingerprint, view.fingerprint);
  assert.equal(changed.view.pullRequest.title, `${pr.title}!`);
});

Deno.test("show: a view names the write tools its buttons call and the kinds they open, as exposed", async () => {
  await using h = await connect({
    routes: ALL_ROUTES,
    apps: true,
    selection: { exclude: ["add_pr_comment"] },
  });
  const { view } = await call(h, "show", { kind: "pull_request", ...PR_42_VIEW }) as {
    view: { actions: string[]; kinds: string[] };
  };
  assert.deepEqual(view.actions, ["submit_pr_review"], "no comment box without add_pr_comment");
  assert.deepEqual(
    view.kinds,
    KINDS.filter((k) => KIND_NEEDS[k].every((t) => t !== "add_pr_comment")),
  );
});
