/**
 * The `show` view in a real browser: headless Chromium loads the stand-in
 * MCP Apps host (a sandboxed `srcdoc` iframe under the spec's default CSP),
 * which gets the page by `resources/read` and the data by calling `show` on
 * the real server against the fixture Bitbucket. Covers the handshake, each
 * kind drawing the fixture's data, hostile text staying text, no network,
 * links only through the host, and the view's tool calls going through
 * confirmation. Each kind leaves a screenshot in /tmp/bitbucket-mcp-view/.
 * The first test proves the detectors on a careless page, so a pass means
 * something. Needs a Chromium-family browser (tests/support/chromium.ts):
 * fails, never skips, without one.
 */
import assert from "node:assert/strict";
import { readFixture } from "../../testing/fixture_bitbucket.ts";
import { PR } from "../../testing/cases/pull_requests.ts";
import { connect } from "../../testing/harness.ts";
import { launchChromium } from "../support/chromium.ts";
import { serveHostPages } from "../support/host_server.ts";
import { probeView } from "../support/probe_view.ts";
import {
  HOST_BINDING,
  HOST_STYLE_VARIABLES,
  StandInHost,
  standInHostPage,
} from "../support/stand_in_host.ts";
import { openView } from "../support/view_session.ts";
import { leaks, pageErrors, screenshot, text } from "../support/view_checks.ts";
import {
  HOSTILE_HTML,
  HOSTILE_PATH,
  hostileRoutes,
  PWNED,
} from "../support/hostile_view_routes.ts";

const PR_ARGS = { kind: "pull_request", project: "PROJ", repo: "web", pr_id: 42 };
const DIFF_ARGS = { kind: "diff", project: "PROJ", repo: "web", pr_id: 42 };
const LIST_ARGS = { kind: "pull_requests", project: "PROJ", repo: "web" };
const THREADS_ARGS = { kind: "threads", project: "PROJ", repo: "web", pr_id: 42 };

interface Pr {
  id: number;
  title: string;
  author: { user: { name: string; displayName: string } };
  reviewers: { user: { name: string }; status: string }[];
}

/** A pull request's title as drawn: its own words, after its number at most. */
function titled(pr: Pr): RegExp {
  return new RegExp(`^(#${pr.id} )?${RegExp.escape(pr.title)}$`);
}

Deno.test("view browser: the detectors catch a careless page (script run from data, a request attempted)", async () => {
  await using h = await connect();
  for (const careless of [false, true]) {
    await using server = serveHostPages({ "/host.html": standInHostPage(probeView(careless)) });
    await using browser = await launchChromium();
    const tab = await browser.open(server.url("/host.html"), { bindings: [HOST_BINDING] });
    const host = new StandInHost(tab, h.client, {
      tool: { name: "probe", inputSchema: { type: "object" } },
      arguments: {},
      result: { content: [], structuredContent: { probe: { text: HOSTILE_HTML } } },
    });
    await host.initialized;
    await tab.waitFor(`document.getElementById("view").dataset.state === "ready"`);
    const ran = await tab.waitFor(PWNED, "view", careless ? 5000 : 300).catch(() => undefined);
    const out = await text(tab, "#out");
    if (careless) {
      assert.ok(ran, "the careless page ran the hostile script, and the check saw it");
      assert.notDeepEqual(leaks(tab, server.url("/host.html")), [], "its fetch was seen");
    } else {
      assert.equal(ran, undefined);
      assert.equal(out, HOSTILE_HTML);
      assert.deepEqual(leaks(tab, server.url("/host.html")), []);
    }
  }
});

Deno.test("view browser: the handshake (ui/initialize, initialized, then input and result; sizes reported; theme followed)", async () => {
  await using view = await openView({ args: PR_ARGS });
  const { host, tab } = view;
  const sequence = host.sequence;
  assert.deepEqual(sequence.slice(0, 5), [
    "view ui/initialize",
    "host response",
    "view ui/notifications/initialized",
    "host ui/notifications/tool-input",
    "host ui/notifications/tool-result",
  ]);
  const deadline = Date.now() + 3000;
  while (host.sizes.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.ok(host.sizes.length > 0, "the view reported its size");
  const last = host.sizes.at(-1)!;
  assert.ok((last.height ?? 0) > 0, `a height: ${JSON.stringify(last)}`);
  const background = await tab.evaluate<string>(
    "getComputedStyle(document.body).backgroundColor",
    "view",
  );
  assert.equal(background, HOST_STYLE_VARIABLES["--color-background-primary"]);
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view browser: pull_request draws #42 as the fixture has it, with no request", async () => {
  await using view = await openView({ args: PR_ARGS });
  const { tab } = view;
  const pr = JSON.parse(readFixture("pull_requests/pr-42.json")) as Pr;
  assert.match((await text(tab, '[data-field="title"]')) ?? "", titled(pr));
  assert.match(
    (await text(tab, '[data-field="author"]')) ?? "",
    new RegExp(pr.author.user.displayName),
  );
  for (const reviewer of pr.reviewers) {
    const status = await tab.evaluate(
      `document.querySelector('li[data-reviewer="${reviewer.user.name}"]')?.dataset.status`,
      "view",
    );
    assert.equal(status, reviewer.status, reviewer.user.name);
  }
  const builds = JSON.parse(readFixture("builds/build-statuses-pr-42.json")) as {
    values: { key: string; state: string }[];
  };
  assert.ok(builds.values.length > 0);
  for (const build of builds.values) {
    const state = await tab.evaluate(
      `document.querySelector('li[data-build=${JSON.stringify(build.key)}]')?.dataset.state`,
      "view",
    );
    assert.equal(state, build.state, `build ${build.key} of the head commit`);
  }
  const merge = JSON.parse(readFixture("pull_requests/merge-status.json")) as { canMerge: boolean };
  assert.equal(
    await tab.evaluate(`document.querySelector('[data-field="merge"]')?.dataset.canMerge`, "view"),
    String(merge.canMerge),
  );
  await screenshot(tab, "pull_request");
  assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
  assert.deepEqual(view.server.requests, ["GET /host.html"]);
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view browser: diff draws every file of #42's diff with its threads at their lines", async () => {
  await using view = await openView({ args: DIFF_ARGS });
  const { tab } = view;
  const paths = [...readFixture("pull_requests/pr-42.diff").matchAll(/^\+\+\+ dst:\/\/(.+)$/gm)]
    .map((m) => m[1]);
  const drawn = await tab.evaluate<string[]>(
    `[...document.querySelectorAll("section[data-file]")].map((s) => s.dataset.file)`,
    "view",
  );
  assert.deepEqual(drawn, paths);
  const files = (view.result.structuredContent as {
    view: {
      files: {
        path: string;
        hunks: { lines: { type: string }[] }[];
        threads: { id: number; text: string }[];
      }[];
    };
  }).view.files;
  for (const file of files) {
    const rows = await tab.evaluate<number>(
      `document.querySelectorAll('section[data-file=${
        JSON.stringify(file.path)
      }] tr[data-line-type]').length`,
      "view",
    );
    assert.equal(rows, file.hunks.flatMap((h) => h.lines).length, `${file.path}: one row a line`);
    for (const thread of file.threads) {
      const shown = await text(tab, `[data-thread="${thread.id}"]`);
      assert.ok(
        shown?.includes(thread.text.split("\n")[0]!),
        `thread ${thread.id} in ${file.path}`,
      );
      const afterLine = await tab.evaluate<boolean>(
        `document.querySelector('[data-thread="${thread.id}"]')?.closest("tr")?.previousElementSibling?.hasAttribute("data-line-type") ?? false`,
        "view",
      );
      assert.ok(afterLine, `thread ${thread.id} sits right after a diff line`);
    }
  }
  assert.ok(files.some((f) => f.threads.length > 0), "the fixture's inline thread is drawn");
  await screenshot(tab, "diff");
  assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
  assert.deepEqual(pageErrors(tab), []);
});

Deno.test("view browser: pull_requests draws the list the fixture has, one row a pull request, and a row opens in place", async () => {
  await using view = await openView({ args: LIST_ARGS });
  const { tab } = view;
  const list = JSON.parse(readFixture("pull_requests/pull-requests.json")) as { values: Pr[] };
  const rows = await tab.evaluate<string[]>(
    `[...document.querySelectorAll("tr[data-pr]")].map((r) => r.dataset.pr)`,
    "view",
  );
  assert.deepEqual(rows, list.values.map((p) => String(p.id)));
  for (const pr of list.values) {
    assert.match(
      (await text(tab, `tr[data-pr="${pr.id}"] [data-field="title"]`)) ?? "",
      titled(pr),
    );
    assert.match(
      (await text(tab, `tr[data-pr="${pr.id}"] [data-field="author"]`)) ?? "",
      new RegExp(pr.author.user.displayName),
    );
  }
  await screenshot(tab, "pull_requests");
  // The row of the pull request the fixture Bitbucket holds in full.
  const first = list.values.find((p) => PR.endsWith(`/${p.id}`));
  await tab.evaluate(
    `document.querySelector('button[data-action="open"][data-pr="${first!.id}"]').click()`,
    "view",
  );
  await tab.waitFor(`document.getElementById("view").dataset.kind === "pull_request"`);
  await tab.waitFor(`document.getElementById("view").dataset.state === "ready"`);
  assert.match((await text(tab, '[data-field="title"]')) ?? "", titled(first!));
  assert.deepEqual(view.host.toolCalls.map((c) => c.name), ["show"], "opened through show");
  assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
  assert.deepEqual(pageErrors(tab), []);
});

for (const args of [PR_ARGS, DIFF_ARGS, THREADS_ARGS, LIST_ARGS]) {
  Deno.test(`view browser: hostile text in a ${args.kind} stays text, and nothing runs or loads`, async () => {
    await using view = await openView({ args, routes: hostileRoutes });
    const { tab } = view;
    assert.equal(await tab.evaluate(PWNED, "view"), undefined, "no planted script ran");
    const all = await tab.evaluate<string>("document.body.textContent", "view");
    assert.ok(all.includes(HOSTILE_HTML), "the planted markup shows as its own text");
    if (args.kind === "diff" || args.kind === "pull_request") {
      assert.ok(all.includes(HOSTILE_PATH), "so does a file name");
    }
    const planted = await tab.evaluate<number>(
      `document.querySelectorAll("[data-planted]").length`,
      "view",
    );
    assert.equal(planted, 0, "no planted element exists");
    assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
    assert.deepEqual(view.server.requests, ["GET /host.html"]);
  });
}

Deno.test("view browser: links open only through the host, and only http(s) ones on the Bitbucket host", async () => {
  let origin = "";
  await using view = await openView({
    args: PR_ARGS,
    routes: (url) => {
      origin = new URL(url).origin;
      const pr = JSON.parse(readFixture("pull_requests/pr-42.json"));
      pr.links = {
        self: [{ href: `${url.replace(/\/rest$/, "")}/projects/PROJ/repos/web/pull-requests/42` }],
      };
      pr.description = [
        `[on the host](${origin}/bitbucket/projects/PROJ)`,
        "[script](javascript:window.__pwned=1)",
        "[elsewhere](https://evil.example.com/x)",
        `[data](data:text/html,<script>1</script>)`,
      ].join("\n\n");
      return [{ method: "GET", path: PR, body: pr }];
    },
  });
  const { tab, host } = view;
  const count = await tab.evaluate<number>(
    `(() => { const links = [...document.querySelectorAll("a[data-link]")]; links.forEach((a) => a.click()); return links.length; })()`,
    "view",
  );
  assert.ok(count > 0, "the pull request's own link is drawn");
  await tab.evaluate(
    `[...document.querySelectorAll("a")].filter((a) => !a.hasAttribute("data-link")).forEach((a) => a.click())`,
    "view",
  );
  const deadline = Date.now() + 3000;
  while (host.links.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(host.links.length, count, "each link click went to the host");
  for (const link of host.links) {
    const url = new URL(link);
    assert.match(url.protocol, /^https?:$/);
    assert.equal(url.origin, origin, link);
  }
  assert.equal(await tab.evaluate(PWNED, "view"), undefined);
  assert.equal(
    await tab.evaluate("location.href", "view"),
    "about:srcdoc",
    "the view never navigated",
  );
  assert.deepEqual(leaks(tab, view.server.url("/host.html")), []);
});

for (const answer of ["accept", "decline"] as const) {
  Deno.test(`view browser: the approve button calls the server through confirmation (${answer}: ${answer === "accept" ? "approved" : "nothing written"})`, async () => {
    const asked: string[] = [];
    await using view = await openView({
      args: PR_ARGS,
      elicit: (request) => {
        asked.push(String(request.params.message));
        return answer === "accept"
          ? { action: "accept", content: { confirm: true } }
          : { action: "decline" };
      },
    });
    const { tab, host, h } = view;
    const writes = () => h.fixture.requests.filter((r) => r.method !== "GET");
    assert.deepEqual(writes(), [], "nothing written before the click");
    await tab.evaluate(`document.querySelector('button[data-action="approve"]').click()`, "view");
    const deadline = Date.now() + 5000;
    while (host.toolCalls.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(host.toolCalls[0]?.name, "submit_pr_review");
    assert.equal(asked.length, 1, "the person was asked once");
    if (answer === "accept") {
      assert.ok(writes().length > 0, "the approval reached Bitbucket");
      assert.ok(writes().every((r) => r.path.startsWith(`${PR}/`)), "only #42");
    } else {
      assert.deepEqual(writes(), [], "a declined approval writes nothing");
    }
    const status = await tab.waitFor<string>(
      `document.querySelector('[data-field="status"]')?.textContent`,
    );
    assert.ok(status.length > 0, "the outcome is shown");
  });
}

Deno.test("view browser: open-diff and refresh call the server and draw in place", async () => {
  await using view = await openView({ args: PR_ARGS });
  const { tab, host } = view;
  await tab.evaluate(`document.querySelector('button[data-action="open-diff"]').click()`, "view");
  await tab.waitFor(`document.getElementById("view").dataset.kind === "diff"`);
  await tab.waitFor(`document.getElementById("view").dataset.state === "ready"`);
  assert.equal(host.toolCalls.at(-1)?.name, "show");
  await tab.evaluate(`document.querySelector('button[data-action="refresh"]').click()`, "view");
  const deadline = Date.now() + 5000;
  while (host.toolCalls.length < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(host.toolCalls.at(-1)?.name, "refresh_view");
});
