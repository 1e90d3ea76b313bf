/**
 * The pull request form in a real browser (headless Chromium, the stand-in
 * host, the real server against the fixture Bitbucket): the model's draft
 * drawn with the default reviewers of its branches, edited and submitted by
 * the person, with nothing written before the press and exactly the person's
 * edits written at it; bad input shown next to its field and nothing sent;
 * no draft button on a server without drafts; hostile text in every field
 * drawn as text. Leaves /tmp/bitbucket-mcp-view/pull_request_form.png.
 */
import assert from "node:assert/strict";
import { readFixture } from "../../testing/fixture_bitbucket.ts";
import { REPO, WEB } from "../../testing/cases/pull_requests.ts";
import { versionRoute } from "../../testing/cases/server_version.ts";
import { openView } from "../support/view_session.ts";
import { leaks, pageErrors, press, screenshot, typeInto, until } from "../support/view_checks.ts";
import { HOSTILE_HTML, hostileRoutes, PWNED } from "../support/hostile_view_routes.ts";

const DRAFT = {
  kind: "pull_request_form",
  project: "PROJ",
  repo: "web",
  title: "Fix the login typo",
  description: "One word was wrong.",
  from_branch: "hotfix/typo",
  reviewers: ["jdoe"],
};

const CREATED = JSON.parse(readFixture("pull_requests/pr-created.json"));
/** The pull request the fixture creates, readable afterwards (as #42's sections) so the view can draw it. */
const CREATED_PATH = `${REPO}/pull-requests/${CREATED.id}`;
const READ_CREATED = [
  { method: "GET" as const, path: CREATED_PATH, body: CREATED },
  ...["merge", "blocker-comments", "changes"].map((rest) => ({
    method: "GET" as const,
    path: `${CREATED_PATH}/${rest}`,
    fixture: rest === "merge"
      ? "pull_requests/merge-status.json"
      : rest === "changes"
      ? "pull_requests/changes.json"
      : "pull_requests/tasks-open.json",
  })),
  {
    method: "GET" as const,
    path: `/build-status/latest/commits/${CREATED.fromRef.latestCommit}`,
    fixture: "builds/build-statuses.json",
  },
];

const value = (selector: string) => `document.querySelector(${JSON.stringify(selector)})?.value`;
const chips =
  `[...document.querySelectorAll('[data-field="reviewers"] li')].map((li) => [li.dataset.reviewer, li.dataset.default === "true"])`;

Deno.test("view form: the draft drawn with its default reviewers, edited, and submitted as edited, nothing written before the press", async () => {
  await using view = await openView({ args: DRAFT, routes: READ_CREATED });
  const { tab, host, h } = view;
  const writes = () => h.fixture.requests.filter((r) => r.method !== "GET");
  assert.equal(await tab.evaluate(value('[data-input="title"]'), "view"), DRAFT.title);
  assert.equal(await tab.evaluate(value('[data-input="description"]'), "view"), DRAFT.description);
  assert.equal(await tab.evaluate(value('[data-input="from_branch"]'), "view"), DRAFT.from_branch);
  const main = (JSON.parse(readFixture("refs/branches.json")).values as {
    displayId: string;
    isDefault?: boolean;
  }[]).find((b) => b.isDefault)!.displayId;
  assert.equal(await tab.evaluate(value('[data-input="to_branch"]'), "view"), main);
  const defaults = (JSON.parse(readFixture("pull_requests/default-reviewers.json")) as {
    name: string;
  }[]).map((u) => u.name);
  assert.deepEqual(await tab.evaluate(chips, "view"), [
    ["jdoe", false],
    ...defaults.map((name) => [name, true]),
  ]);
  assert.match(
    await tab.evaluate<string>(
      `document.querySelector('[data-field="conditions"]').textContent`,
      "view",
    ),
    /must approve/,
    "the approvals the conditions require",
  );
  assert.ok(
    await tab.evaluate(`!!document.querySelector('button[data-action="create-draft"]')`, "view"),
    "a 9.4 server has drafts",
  );
  await screenshot(tab, "pull_request_form");
  assert.deepEqual(writes(), [], "showing the form wrote nothing");
  assert.equal(host.toolCalls.length, 0, "and called nothing");

  // The person edits: a new title, one default reviewer dropped, one reviewer added.
  const title = "Fix the typo on the login page";
  await typeInto(tab, '[data-input="title"]', title);
  await press(tab, `[data-field="reviewers"] li[data-reviewer="${defaults[1]}"] button`);
  await typeInto(tab, '[data-input="reviewer"]', "dlee");
  // Typing a name looks people up (find_users) and offers them to complete it.
  await until(() => host.toolCalls.some((c) => c.name === "find_users"), "the lookup");
  const found = (JSON.parse(readFixture("users/users.json")).values as { name: string }[])
    .map((u) => u.name);
  await tab.waitFor(
    `[...document.querySelector('[data-input="reviewer"]').list.options].length === ${found.length}`,
  );
  assert.deepEqual(
    await tab.evaluate(
      `[...document.querySelector('[data-input="reviewer"]').list.options].map((o) => o.value)`,
      "view",
    ),
    found,
  );
  await tab.evaluate(
    `document.querySelector('[data-input="reviewer"]').dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }))`,
    "view",
  );
  assert.deepEqual(writes(), [], "editing writes nothing");
  await press(tab, 'button[data-action="create"]');
  await until(() => writes().length > 0, "the create");
  assert.deepEqual(writes().map((r) => [r.method, r.path, r.body]), [[
    "POST",
    `${REPO}/pull-requests`,
    {
      title,
      description: DRAFT.description,
      fromRef: { id: `refs/heads/${DRAFT.from_branch}`, repository: WEB },
      toRef: { id: `refs/heads/${main}`, repository: WEB },
      reviewers: ["jdoe", defaults[0], "dlee"].map((name) => ({ user: { name } })),
    },
  ]]);
  assert.deepEqual(
    host.toolCalls.map((c) => c.name).filter((name) => name !== "find_users").slice(0, 1),
    ["submit_pr_form"],
    "the press called the form's own submit",
  );
  await tab.waitFor(`document.getElementById("view").dataset.kind === "pull_request"`);
  await until(() => host.modelContext.length > 0, "the line for the model");
  assert.match(
    host.modelContext.at(-1)!,
    new RegExp(`^You created pull request #${CREATED.id}\\b`),
  );
  assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view form: bad input is shown next to its field and nothing is sent", async () => {
  await using view = await openView({ args: DRAFT });
  const { tab, host, h } = view;
  await typeInto(tab, '[data-input="title"]', "   ");
  await typeInto(tab, '[data-input="to_branch"]', DRAFT.from_branch);
  await press(tab, 'button[data-action="create"]');
  const error = (field: string) =>
    tab.evaluate<string>(`document.querySelector('[data-error="${field}"]').textContent`, "view");
  assert.notEqual(await error("title"), "", "the empty title is named at its field");
  assert.notEqual(await error("to_branch"), "", "so is a target equal to the source");
  await typeInto(tab, '[data-input="to_branch"]', "no-such-branch");
  await press(tab, 'button[data-action="create"]');
  assert.match(await error("to_branch"), /No such branch/);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
  assert.ok(
    !host.toolCalls.some((c) => c.name === "submit_pr_form"),
    "the submit was never called",
  );
});

Deno.test("view form: a server without draft pull requests gets no Create as draft", async () => {
  await using view = await openView({
    args: { ...DRAFT, draft: true },
    routes: [versionRoute("8.17.0")],
  });
  const { tab } = view;
  assert.equal(
    await tab.evaluate(
      `document.querySelectorAll('button[data-action="create-draft"]').length`,
      "view",
    ),
    0,
  );
  assert.ok(await tab.evaluate(`!!document.querySelector('button[data-action="create"]')`, "view"));
});

Deno.test("view form: hostile text in every field, drafted or from Bitbucket, stays text", async () => {
  const hostileBranch = `feature/${HOSTILE_HTML.slice(0, 60)}`;
  const branches = JSON.parse(readFixture("refs/branches.json"));
  const reviewers =
    (JSON.parse(readFixture("pull_requests/default-reviewers.json")) as Record<string, unknown>[])
      .map((u) => ({ ...u, displayName: `${HOSTILE_HTML}${u.displayName}` }));
  const routes = () => [
    {
      method: "GET" as const,
      path: `${REPO}/branches`,
      body: {
        ...branches,
        isLastPage: true,
        values: [...branches.values, {
          ...branches.values[1],
          displayId: hostileBranch,
          id: `refs/heads/${hostileBranch}`,
        }],
      },
    },
    {
      method: "GET" as const,
      path: "/default-reviewers/latest/projects/PROJ/repos/web/reviewers",
      body: reviewers,
    },
    ...hostileRoutes(),
  ];
  const drafted = {
    ...DRAFT,
    title: HOSTILE_HTML.slice(0, 250),
    description: HOSTILE_HTML,
    from_branch: hostileBranch,
    to_branch: HOSTILE_HTML,
    reviewers: [HOSTILE_HTML.slice(0, 250)],
  };
  for (
    const args of [drafted, { kind: "pull_request_form", project: "PROJ", repo: "web", pr_id: 42 }]
  ) {
    await using view = await openView({ args, routes });
    const { tab } = view;
    assert.equal(await tab.evaluate(PWNED, "view"), undefined, "no planted script ran");
    assert.equal(
      await tab.evaluate(`document.querySelectorAll("[data-planted]").length`, "view"),
      0,
    );
    const values = await tab.evaluate<string[]>(
      `[...document.querySelectorAll("input, textarea, option")].map((b) => b.value)`,
      "view",
    );
    const shown = (await tab.evaluate<string>("document.body.textContent", "view")) +
      values.join("\n");
    assert.ok(
      shown.includes(HOSTILE_HTML.slice(0, 60)),
      "the planted markup shows as its own text",
    );
    if (args === drafted) {
      assert.equal(await tab.evaluate(value('[data-input="title"]'), "view"), drafted.title);
      assert.equal(
        await tab.evaluate(value('[data-input="to_branch"]'), "view"),
        drafted.to_branch,
      );
      assert.ok(values.includes(hostileBranch), "a branch name is an option's value");
    }
    assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
    assert.deepEqual(view.server.requests, ["GET /host.html"]);
  }
});

Deno.test("view form: an existing pull request edited in place is updated with the person's change alone, at the version shown", async () => {
  await using view = await openView({
    args: { kind: "pull_request_form", project: "PROJ", repo: "web", pr_id: 42 },
  });
  const { tab, host, h } = view;
  const pr = JSON.parse(readFixture("pull_requests/pr-42.json"));
  assert.equal(await tab.evaluate(value('[data-input="title"]'), "view"), pr.title);
  assert.equal(
    await tab.evaluate(`document.querySelector('[data-input="from_branch"]').readOnly`, "view"),
    true,
    "a pull request's source cannot change",
  );
  const title = `${pr.title} (v2)`;
  await typeInto(tab, '[data-input="title"]', title);
  await press(tab, 'button[data-action="update"]');
  await until(() => h.fixture.requests.some((r) => r.method === "PUT"), "the update");
  const submit = host.toolCalls.find((c) => c.name === "submit_pr_form");
  assert.deepEqual(submit?.arguments, {
    project: "PROJ",
    repo: "web",
    action: "update",
    pr_id: pr.id,
    version: pr.version,
    title,
  }, "only the title the person changed");
  const put = h.fixture.requests.find((r) => r.method === "PUT")!;
  assert.deepEqual(put.body, {
    version: pr.version,
    title,
    description: pr.description,
    reviewers: pr.reviewers.map((r: { user: { name: string } }) => ({
      user: { name: r.user.name },
    })),
    toRef: { id: pr.toRef.id, repository: WEB },
    draft: pr.draft ?? false,
  }, "the rest as Bitbucket has it, untouched by the view's cleaning");
  await until(() => host.modelContext.length > 0, "the line for the model");
  assert.equal(host.modelContext.at(-1), `You updated pull request #${pr.id}`);
});
