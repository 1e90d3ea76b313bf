/**
 * Views that keep themselves current, in a real browser (headless Chromium,
 * the stand-in host, the real server against the fixture Bitbucket): a build
 * going from in progress to failed redraws the pull request and tells the
 * model one line; nothing is asked while the view is hidden, and it catches
 * up when shown; new commits under a diff are offered, not swapped under the
 * reader; and lines selected in a diff go to the chat as "path:start-end"
 * with the lines (ui/message).
 */
import assert from "node:assert/strict";
import { readFixture, type Route } from "../../testing/fixture_bitbucket.ts";
import { PR } from "../../testing/cases/pull_requests.ts";
import { PR_42_HEAD } from "../../testing/cases/builds.ts";
import { openView } from "../support/view_session.ts";
import { pageErrors, press, setHidden, until } from "../support/view_checks.ts";

const PR_42 = { project: "PROJ", repo: "web", pr_id: 42 };
const BUILDS = `/build-status/latest/commits/${PR_42_HEAD}`;

/** #42's head commit builds with the first one in `state`. */
function buildsWith(state: string): Route {
  const builds = JSON.parse(readFixture("builds/build-statuses-pr-42.json"));
  builds.values[0].state = state;
  return { method: "GET", path: BUILDS, body: builds };
}

const FIRST_BUILD = JSON.parse(readFixture("builds/build-statuses-pr-42.json")).values[0].key;
const refreshes = (host: { toolCalls: { name: string }[] }) =>
  host.toolCalls.filter((c) => c.name === "refresh_view").length;

Deno.test("view live: a build going from in progress to failed redraws the pull request and tells the model one line", async () => {
  await using view = await openView({
    args: { kind: "pull_request", ...PR_42 },
    routes: [buildsWith("INPROGRESS")],
  });
  const { tab, host, h } = view;
  const build = `document.querySelector('li[data-build=${
    JSON.stringify(FIRST_BUILD)
  }]')?.dataset.state`;
  assert.equal(await tab.evaluate(build, "view"), "INPROGRESS");
  h.fixture.prepend([buildsWith("FAILED")]);
  await tab.waitFor(`${build} === "FAILED"`, "view", 15_000);
  assert.ok(refreshes(host) >= 1, "through refresh_view");
  await until(() => host.modelContext.length > 0, "the line for the model");
  assert.deepEqual(host.modelContext, [`Build ${FIRST_BUILD} failed on ${PR_42_HEAD.slice(0, 7)}`]);
  assert.deepEqual(h.fixture.requests.filter((r) => r.method !== "GET"), []);
  // Nothing runs any more: the next look is a while off, and tells nothing when nothing changed.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(host.modelContext.length, 1, "one update, not one per look");
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view live: nothing is asked while the view is hidden; shown again, it looks at once", async () => {
  await using view = await openView({
    args: { kind: "pull_request", ...PR_42 },
    routes: [buildsWith("INPROGRESS")],
  });
  const { tab, host } = view;
  await setHidden(tab, true);
  const before = refreshes(host);
  // Longer than the first wait while a build runs: a visible view would have looked by now.
  await new Promise((resolve) => setTimeout(resolve, 4500));
  assert.equal(refreshes(host), before, "no look while hidden");
  await setHidden(tab, false);
  await until(() => refreshes(host) > before, "a look once shown", 2000);
});

Deno.test("view live: new commits under a diff are offered, not swapped under the reader", async () => {
  await using view = await openView({ args: { kind: "diff", ...PR_42 } });
  const { tab, host, h } = view;
  const pr = JSON.parse(readFixture("pull_requests/pr-42.json"));
  const head = "b".repeat(40);
  const added = "+// a line the new commit adds";
  const diff = readFixture("pull_requests/pr-42.diff").replace(/^(@@[^\n]*\n)/m, `$1${added}\n`);
  h.fixture.prepend([
    { method: "GET", path: PR, body: { ...pr, fromRef: { ...pr.fromRef, latestCommit: head } } },
    { method: "GET", path: `${PR}.diff`, body: diff, headers: { "content-type": "text/plain" } },
  ]);
  const shows = `document.body.textContent.includes(${JSON.stringify(added)})`;
  // Shown after being hidden, the view looks at once (rather than in its slow, open-only pace).
  await setHidden(tab, true);
  await setHidden(tab, false);
  await tab.waitFor(`!!document.querySelector('[data-field="offer"]')`, "view", 8000);
  assert.match(
    await tab.evaluate<string>(
      `document.querySelector('[data-field="offer"]').textContent`,
      "view",
    ),
    /New commits/,
  );
  assert.equal(await tab.evaluate(shows, "view"), false, "the diff read is still the one drawn");
  await until(() => host.modelContext.length > 0, "the line for the model");
  assert.equal(host.modelContext[0], `New commits on #42: ${head.slice(0, 7)}`);
  await press(tab, '[data-field="offer"]');
  await tab.waitFor(shows);
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view diff: selected lines go to the chat as path:start-end with the lines", async () => {
  await using view = await openView({ args: { kind: "diff", ...PR_42 } });
  const { tab, host } = view;
  const file = (view.result.structuredContent as {
    view: {
      files: { path: string; hunks: { lines: { new?: number; old?: number; text: string }[] }[] }[];
    };
  }).view.files[0]!;
  const lines = file.hunks.flatMap((h) => h.lines).slice(1, 4);
  assert.equal(lines.length, 3, "the first file has lines to pick");
  await tab.evaluate(
    `(() => { const rows = document.querySelector("section[data-file]").querySelectorAll("tr[data-line-type]");
      const range = document.createRange();
      range.setStart(rows[1].lastChild.firstChild, 0);
      range.setEnd(rows[3].lastChild.firstChild, 1);
      getSelection().removeAllRanges();
      getSelection().addRange(range); })()`,
    "view",
  );
  await tab.waitFor(`!!document.querySelector('button[data-action="send-lines"]')`);
  await press(tab, 'button[data-action="send-lines"]');
  await until(() => host.messages.length > 0, "the message");
  const numbers = lines.map((l) => l.new ?? l.old!);
  const span = `${Math.min(...numbers)}-${Math.max(...numbers)}`;
  const [head, ...rest] = host.messages[0]!.split("\n");
  assert.ok(head!.startsWith(`${file.path}:${span} `), head);
  for (const line of lines) {
    assert.ok(rest.some((r) => r.slice(1) === line.text), `the line ${JSON.stringify(line.text)}`);
  }
  assert.deepEqual(pageErrors(tab), []);
});
