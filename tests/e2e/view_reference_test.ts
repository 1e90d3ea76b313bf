/**
 * The view against the reference: the official MCP Apps host library
 * (`AppBridge` and `PostMessageTransport` from `@modelcontextprotocol/ext-apps`,
 * bundled for the test only) drives the same page the stand-in host does, in
 * headless Chromium, so the page's hand-written bridge is checked against
 * the library hosts build on, not only against our reading of the spec.
 */
import assert from "node:assert/strict";
import { PR } from "../../testing/cases/pull_requests.ts";
import { readFixture } from "../../testing/fixture_bitbucket.ts";
import { openReferenceView } from "../support/view_session.ts";

Deno.test("view reference: AppBridge completes the handshake with the page, which draws the pull request, opens links, calls tools and updates the model's context through it", async () => {
  let own = "";
  await using view = await openReferenceView({
    args: { kind: "pull_request", project: "PROJ", repo: "web", pr_id: 42 },
    routes: (url) => {
      const pr = JSON.parse(readFixture("pull_requests/pr-42.json"));
      own = `${url.replace(/\/rest$/, "")}/projects/PROJ/repos/web/pull-requests/42`;
      pr.links = { self: [{ href: own }] };
      return [{ method: "GET", path: PR, body: pr }];
    },
  });
  const { tab, host } = view;
  const names = host.events.map((e) => e.name);
  assert.deepEqual(names.slice(0, 3), ["connected", "initialized", "sent"]);
  const pr = JSON.parse(readFixture("pull_requests/pr-42.json")) as { title: string };
  const title = await tab.evaluate<string>(
    `document.querySelector('[data-field="title"]')?.textContent`,
    "view",
  );
  assert.ok(title.endsWith(pr.title), title);
  const deadline = Date.now() + 3000;
  const sized = () => host.events.some((e) => e.name === "size-changed");
  while (!sized() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  assert.ok(sized(), "the bridge saw a size report");
  await tab.evaluate(`document.querySelector('button[data-action="refresh"]').click()`, "view");
  while (host.toolCalls.length === 0 && Date.now() < deadline + 3000) {
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.equal(host.toolCalls[0]?.name, "refresh_view", "the view's call came through the bridge");
  assert.notEqual(host.toolCalls[0]?.result.isError, true);
  await tab.evaluate(`document.querySelector("a[data-link]").click()`, "view");
  const opened = () => host.events.find((e) => e.name === "open-link");
  while (!opened() && Date.now() < deadline + 6000) await new Promise((r) => setTimeout(r, 25));
  assert.equal(opened()?.detail, own, "the pull request's link went to the bridge's onopenlink");
  // What the person does is told to the model through the bridge's onupdatemodelcontext.
  await tab.evaluate(
    `(() => { const box = document.querySelector('textarea[data-field="comment"]');
      box.value = "Looks good."; document.querySelector('button[data-action="comment"]').click(); })()`,
    "view",
  );
  const told = () => host.events.find((e) => e.name === "model-context");
  while (!told() && Date.now() < deadline + 9000) await new Promise((r) => setTimeout(r, 25));
  assert.equal(told()?.detail, "You commented on #42");
  assert.deepEqual(
    host.events.filter((e) => e.name === "error"),
    [],
    "the bridge reported no error",
  );
  assert.deepEqual(
    tab.requests.map((r) => r.url),
    [view.server.url("/host.html")],
    "no request but the host page's own",
  );
});
