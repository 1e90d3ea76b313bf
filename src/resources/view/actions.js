// The bitbucket-mcp view, part 3 of 8:
// actions through the host: buttons that call the server's tools, drawing a
// view in place, and the pieces every kind's page is made of.
// `deno task generate` joins the parts, in view.html's order, into the
// page's one strict script (one function scope): what one part defines, the
// others use.
// deno-lint-ignore-file no-unused-vars
// --- actions through the host ----------------------------------------------

function say(text) {
  const status = root.querySelector('[data-field="status"]');
  if (status) status.textContent = text;
}

/** A button running `run`; with `tool`, drawn only while the view says that tool is exposed. */
function action(name, label, run, tool) {
  if (!host.serverTools) return null;
  if (tool && !(current?.actions ?? []).includes(tool)) return null;
  const button = el("button", { action: name }, label);
  button.type = "button";
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await run();
    } catch (e) {
      say(e.message);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

const textOf = (result) =>
  (result?.content ?? []).filter((c) => c?.type === "text").map((c) => c.text).join(" ");

async function callTool(name, args) {
  const result = await request("tools/call", { name, arguments: args });
  if (result.isError) throw new Error(textOf(result) || `${name} failed`);
  return result;
}

/** A `tag` element naming reviewer `r`, with their verdict as a badge. */
function reviewerWith(tag, r) {
  return el(
    tag,
    { reviewer: r.name, status: r.status },
    who(r),
    " ",
    r.status ? el("span", { class: "badge" }, r.status) : null,
  );
}

/** `items` as a list of `item(x)`, or one muted line saying `none` when there are none. */
function listOr(items, item, none) {
  return items.length ? el("ul", {}, items.map(item)) : el("p", { class: "muted" }, none);
}

/** Asks the server for a view and draws it here; then shows file `focus` of a diff. */
async function showHere(tool, args, focus) {
  drawResult(await callTool(tool, args));
  const file = [...root.querySelectorAll("section[data-file]")].find((s) =>
    s.dataset.file === focus
  );
  if (file) {
    file.classList.add("focus");
    file.scrollIntoView();
  }
}

function argsOf(view) {
  const args = { kind: view.kind, project: view.project, repo: view.repo };
  if (view.pullRequest) args.pr_id = view.pullRequest.id;
  if (view.kind === "pull_requests") args.state = view.state;
  return args;
}

/** The view drawn anew, in place (the page's own refresh). */
const refresh = () => showHere("refresh_view", argsOf(current));

/** Draws `kind` of pull request `id` of `view`'s repository in place of `view`. */
function showPullRequest(view, id, kind = "pull_request", focus) {
  const args = { kind, project: view.project, repo: view.repo, pr_id: id };
  return showHere("show", args, focus);
}

/** A button opening `kind` of `view`'s pull request, drawn only while the server offers that kind. */
function opens(view, kind, label, name = `open-${kind}`) {
  if (!(view.kinds ?? []).includes(kind)) return null;
  return action(name, label, () => showPullRequest(view, view.pullRequest.id, kind));
}

/** A button that runs `write`, tells the model `line`, and draws the view anew. */
function writes(name, label, tool, write, line) {
  return action(name, label, async () => {
    await write();
    tell(line);
    await refresh();
    say(line.replace(/^You /, "Done: you "));
  }, tool);
}

/**
 * A text box and its button; `send(text)` runs with its text, which it then
 * clears. `folded`: behind its label until opened (a reply under each thread).
 */
function composer(name, label, placeholder, send, folded = false) {
  const box = el("textarea", { field: name });
  box.placeholder = placeholder;
  box.rows = 3;
  const button = action(name, folded ? "Send" : label, async () => {
    if (box.value.trim() === "") return say("Write something first.");
    await send(box.value);
    box.value = "";
  }, "add_pr_comment");
  if (!button) return null;
  return folded
    ? el("details", { class: "composer" }, el("summary", {}, label), box, button)
    : el("div", { class: "composer" }, box, button);
}

// --- the pieces of a page ------------------------------------------------------

function header(view, title) {
  return el(
    "header",
    {},
    el("h1", { field: "title" }, title),
    el("div", { class: "row" }, el("span", { class: "muted" }, `${view.project}/${view.repo}`)),
  );
}

const statusRow = (...buttons) =>
  el("div", { class: "row" }, buttons, el("span", { field: "status", class: "muted" }));
