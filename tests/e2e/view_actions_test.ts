/**
 * The person acting inside a view, in a real browser (headless Chromium, the
 * stand-in host, the real server against the fixture Bitbucket): a reply,
 * a thread resolved and a task resolved (after the person's yes) from the
 * threads view; from the pull request view a changed file opened at its
 * place in the diff, Request changes (after a yes) and a comment. Each action
 * goes through the server's own tool and tells the model one short line
 * (ui/update-model-context). Leaves /tmp/bitbucket-mcp-view/threads.png.
 */
import assert from "node:assert/strict";
import { readFixture } from "../../testing/fixture_bitbucket.ts";
import { PR } from "../../testing/cases/pull_requests.ts";
import { openView } from "../support/view_session.ts";
import { leaks, pageErrors, press, screenshot, typeInto, until } from "../support/view_checks.ts";

const PR_42 = { project: "PROJ", repo: "web", pr_id: 42 };
const writes = (h: { fixture: { requests: { method: string; path: string; body?: unknown }[] } }) =>
  h.fixture.requests.filter((r) => r.method !== "GET").map((r) => [r.method, r.path, r.body]);

Deno.test("view threads: a reply posted in place, a thread resolved, a task resolved after the person's yes", async () => {
  const asked: string[] = [];
  await using view = await openView({
    args: { kind: "threads", ...PR_42 },
    routes: [{
      method: "PUT",
      path: `${PR}/comments/309`,
      fixture: "pull_requests/comment-309.json",
    }],
    elicit: (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { confirm: true } };
    },
  });
  const { tab, host, h } = view;
  const activities = JSON.parse(readFixture("pull_requests/activities.json")) as {
    values: {
      commentAction?: string;
      comment?: { id: number; severity?: string; state?: string; comments?: unknown[] };
    }[];
  };
  const roots = activities.values.filter((a) => a.commentAction === "ADDED").map((a) => a.comment!);
  const withReplies = roots.find((c) => (c.comments ?? []).length > 0)!;
  const task = roots.find((c) => c.severity === "BLOCKER" && c.state === "OPEN")!;
  assert.ok(
    await tab.evaluate(
      `!!document.querySelector('[data-thread="${withReplies.id}"] [data-depth="1"]')`,
      "view",
    ),
    "a reply is drawn under its comment",
  );
  await screenshot(tab, "threads");
  assert.deepEqual(writes(h), [], "drawing wrote nothing");

  const text = "Trimmed in the next push.";
  await typeInto(tab, `[data-thread="${withReplies.id}"] textarea[data-field="reply"]`, text);
  await press(tab, `[data-thread="${withReplies.id}"] button[data-action="reply"]`);
  await until(() => writes(h).length === 1, "the reply");
  assert.deepEqual(writes(h)[0], ["POST", `${PR}/comments`, {
    text,
    parent: { id: withReplies.id },
  }]);
  await until(() => host.modelContext.length === 1, "the line for the model");
  assert.equal(host.modelContext[0], "You replied to a comment on #42");
  await until(() => host.toolCalls.some((c) => c.name === "refresh_view"), "the view drawn anew");
  assert.deepEqual(asked, [], "a reply asks nothing");

  await tab.waitFor(
    `!!document.querySelector('[data-thread="309"] button[data-action="resolve"]')`,
  );
  await press(tab, '[data-thread="309"] button[data-action="resolve"]');
  await until(() => writes(h).length === 2, "the resolution");
  assert.deepEqual(writes(h)[1]?.slice(0, 2), ["PUT", `${PR}/comments/309`]);
  assert.equal((writes(h)[1]?.[2] as { threadResolved?: boolean }).threadResolved, true);
  assert.deepEqual(asked, [], "resolving a discussion asks nothing");

  await tab.waitFor(
    `!!document.querySelector('[data-comment="${task.id}"] button[data-action="resolve-task"]')`,
  );
  await press(tab, `[data-comment="${task.id}"] button[data-action="resolve-task"]`);
  await until(() => writes(h).length === 3, "the task resolved");
  assert.equal(asked.length, 1, "a task lifts a merge check: the person was asked first");
  assert.deepEqual(writes(h)[2]?.slice(0, 2), ["PUT", `${PR}/comments/${task.id}`]);
  await until(() => host.modelContext.length === 3, "a line for each action");
  assert.deepEqual(host.modelContext.at(-1)!.split("\n"), [
    "You replied to a comment on #42",
    "You resolved a thread on #42",
    "You resolved a task on #42",
  ], "each update carries the few latest lines");
  assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view pull request: its files open the diff at their place; Request changes asks first; a comment is posted", async () => {
  const asked: string[] = [];
  await using view = await openView({
    args: { kind: "pull_request", ...PR_42 },
    elicit: (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { confirm: true } };
    },
  });
  const { tab, host, h } = view;
  const files = (view.result.structuredContent as {
    view: { changes: { files: { path: string }[] } };
  }).view.changes.files;
  assert.ok(files.length > 1, "the fixture changes several files");
  const drawn = await tab.evaluate<string[]>(
    `[...document.querySelectorAll("li[data-change]")].map((li) => li.dataset.change)`,
    "view",
  );
  assert.deepEqual(drawn, files.map((f) => f.path));

  const text = "Please add the test first.";
  await typeInto(tab, 'textarea[data-field="comment"]', text);
  await press(tab, 'button[data-action="comment"]');
  await until(() => writes(h).length === 1, "the comment");
  assert.deepEqual(writes(h)[0], ["POST", `${PR}/comments`, { text }]);
  await until(() => host.modelContext.length === 1, "the line for the model");
  assert.equal(host.modelContext[0], "You commented on #42");

  await tab.waitFor(`!!document.querySelector('button[data-action="needs-work"]')`);
  await press(tab, 'button[data-action="needs-work"]');
  await until(() => host.modelContext.length === 2, "the verdict told");
  assert.equal(asked.length, 1, "the person was asked before the verdict");
  assert.ok(writes(h).length > 1, "the verdict reached Bitbucket");
  assert.equal(host.modelContext[1]!.split("\n").at(-1), "You asked for changes on #42");

  const last = files.at(-1)!.path;
  await tab.waitFor(`!!document.querySelector('li[data-change] button[data-action="open-file"]')`);
  await tab.evaluate(
    `[...document.querySelectorAll("li[data-change]")].find((li) => li.dataset.change === ${
      JSON.stringify(last)
    }).querySelector("button").click()`,
    "view",
  );
  await tab.waitFor(`document.getElementById("view").dataset.kind === "diff"`);
  assert.equal(
    await tab.evaluate(`document.querySelector("section.focus")?.dataset.file`, "view"),
    last,
    "the diff opens at the file",
  );
  assert.deepEqual(pageErrors(tab), []);
});
