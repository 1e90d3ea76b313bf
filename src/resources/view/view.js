// The bitbucket-mcp view: draws what `show` returned (structuredContent.view,
// version 1) beside the chat, speaking MCP Apps to its host over postMessage.
// Every piece of Bitbucket text becomes a text node; links open only through
// the host (ui/open-link), only on the Bitbucket origin the payload names;
// buttons call the server's own tools through the host (tools/call).
//
// Part 8 of 8: drawing a result, and the start. `deno task generate` joins
// the parts, in view.html's order, into one script.
// deno-lint-ignore-file no-unused-vars
const KINDS = {
  pull_request: drawPullRequest,
  diff: drawDiff,
  threads: drawThreads,
  pull_requests: drawList,
  pull_request_form: drawForm,
};

function fail(text) {
  root.dataset.state = "error";
  root.replaceChildren(el("p", { field: "error" }, text));
}

/** Draws a tools/call result: its view when it carries one this page knows. */
function drawResult(result) {
  const view = result?.structuredContent?.view;
  if (result?.isError) return fail(textOf(result) || "The call failed.");
  if (!view) return fail(textOf(result) || "Nothing to show.");
  if (view.version !== VERSION || !KINDS[view.kind]) {
    return fail(
      `This page draws view version ${VERSION}; the server sent ${view.version} (${view.kind}).`,
    );
  }
  current = view;
  root.dataset.kind = view.kind;
  root.replaceChildren(...KINDS[view.kind](view).flat().filter(Boolean));
  root.dataset.state = "ready";
  watch(view);
}

// --- start ----------------------------------------------------------------------

request("ui/initialize", {
  protocolVersion: "2026-01-26",
  appInfo: { name: "bitbucket-mcp-view", version: String(VERSION) },
  appCapabilities: {},
}).then((result) => {
  host = result.hostCapabilities ?? {};
  applyContext(result.hostContext ?? {});
  notify("ui/notifications/initialized", {});
  new ResizeObserver(reportSize).observe(document.documentElement);
  reportSize();
}).catch((e) => fail(`The host did not initialize the view: ${e.message}`));
