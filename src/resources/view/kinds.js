// The bitbucket-mcp view, part 3 of 4:
// the kinds: a pull request, a diff, a list, and their buttons.
// `deno task generate` joins bridge.js, dom.js, kinds.js and view.js, in
// that order, into the page's one strict script (one function scope): what
// one part defines, the others use.
// deno-lint-ignore-file no-unused-vars
// --- actions through the host ----------------------------------------------

function say(text) {
  const status = root.querySelector('[data-field="status"]');
  if (status) status.textContent = text;
}

/** A button calling one of the server's tools through the host; absent when the host proxies none. */
function action(name, label, run) {
  if (!host.serverTools) return null;
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
    el("span", { class: "badge" }, r.status),
  );
}

/** `items` as a list of `item(x)`, or one muted line saying `none` when there are none. */
function listOr(items, item, none) {
  return items.length ? el("ul", {}, items.map(item)) : el("p", { class: "muted" }, none);
}

/** Asks the server for a view and draws it here. */
async function showHere(tool, args) {
  drawResult(await callTool(tool, args));
}

function argsOf(view) {
  const args = { kind: view.kind, project: view.project, repo: view.repo };
  if (view.pullRequest) args.pr_id = view.pullRequest.id;
  if (view.kind === "pull_requests") args.state = view.state;
  return args;
}

/** Draws pull request `id` of `view`'s repository in place of `view`. */
function showPullRequest(view, id) {
  return showHere("show", {
    kind: "pull_request",
    project: view.project,
    repo: view.repo,
    pr_id: id,
  });
}

// --- the kinds ----------------------------------------------------------------

function header(view, title) {
  return el(
    "header",
    {},
    el("h1", { field: "title" }, title),
    el("div", { class: "row" }, el("span", { class: "muted" }, `${view.project}/${view.repo}`)),
  );
}

function drawPullRequest(view) {
  const pr = view.pullRequest;
  const args = { project: view.project, repo: view.repo, pr_id: pr.id };
  const parts = [
    header(view, `#${pr.id} ${pr.title}`),
    el(
      "div",
      { class: "row" },
      el("span", { class: "badge", field: "state" }, pr.draft ? `${pr.state} (draft)` : pr.state),
      el("span", { field: "author" }, who(pr.author)),
      el(
        "span",
        { class: "muted", field: "refs" },
        `${pr.fromRef.displayId} → ${pr.toRef.displayId}`,
      ),
      el("span", { class: "muted" }, when(pr.updatedDate ?? pr.createdDate)),
      pr.link ? link(pr.link, "Open in Bitbucket") : null,
    ),
    pr.description ? markdown(pr.description) : el("p", { class: "muted" }, "No description."),
    el("h2", {}, "Reviewers"),
    listOr(pr.reviewers, (r) => reviewerWith("li", r), "No reviewers."),
  ];
  if (view.builds) {
    parts.push(el("h2", {}, "Builds"));
    parts.push(
      listOr(
        view.builds,
        (b) =>
          el(
            "li",
            { build: b.key, state: b.state },
            b.url ? link(b.url, b.name ?? b.key) : (b.name ?? b.key),
            " ",
            el("span", { class: "badge" }, b.state),
          ),
        "No builds on the head commit.",
      ),
    );
  }
  if (view.merge) {
    const m = view.merge;
    parts.push(el("h2", {}, "Merge checks"));
    parts.push(
      el(
        "div",
        { field: "merge", canMerge: m.canMerge },
        el(
          "span",
          { class: m.canMerge ? "badge ok" : "badge bad" },
          m.canMerge ? "Can merge" : m.conflicted ? "Conflicted" : "Cannot merge",
        ),
        m.vetoes.length
          ? el(
            "ul",
            {},
            m.vetoes.map((v, i) =>
              el("li", { veto: i }, v.summary, v.detail ? `: ${v.detail}` : "")
            ),
          )
          : null,
      ),
    );
  }
  if (view.tasks) {
    const t = view.tasks;
    parts.push(el("p", { field: "tasks" }, `${t.open}${t.complete ? "" : "+"} open task(s)`));
  }
  parts.push(
    el(
      "div",
      { class: "row" },
      action("approve", "Approve", async () => {
        await callTool("submit_pr_review", { ...args, action: "APPROVE" });
        await showHere("refresh_view", argsOf(view));
        say("Approved.");
      }),
      action("open-diff", "Open the diff", () => showHere("show", { ...args, kind: "diff" })),
      action("refresh", "Refresh", () => showHere("refresh_view", argsOf(view))),
      el("span", { field: "status", class: "muted" }),
    ),
  );
  return parts;
}

function threadBox(thread) {
  return el(
    "div",
    { class: "thread", thread: thread.id },
    el(
      "div",
      { class: "row muted" },
      el("strong", {}, who(thread.author)),
      when(thread.createdDate),
    ),
    markdown(thread.text),
    thread.replies
      ? el(
        "div",
        { class: "muted" },
        `${thread.replies} repl${thread.replies === 1 ? "y" : "ies"}`,
      )
      : null,
  );
}

/** The number a thread's line has on the side it is anchored to. */
const threadKey = (t) =>
  `${t.fileType === "FROM" || t.lineType === "REMOVED" ? "old" : "new"}:${t.line}`;

function drawFile(file) {
  const byLine = new Map();
  for (const t of file.threads) {
    const key = threadKey(t);
    if (!byLine.has(key)) byLine.set(key, []);
    byLine.get(key).push(t);
  }
  const table = el("table", { class: "diff" });
  for (const hunk of file.hunks) {
    table.append(el("tr", { class: "hunk" }, el("td", { colspan: 3 }, hunk.header)));
    for (const line of hunk.lines) {
      const sign = line.type === "ADDED" ? "+" : line.type === "REMOVED" ? "-" : " ";
      table.append(
        el(
          "tr",
          { lineType: line.type },
          el("td", { class: "n" }, line.old ?? ""),
          el("td", { class: "n" }, line.new ?? ""),
          el("td", {}, sign + line.text),
        ),
      );
      for (const key of [`old:${line.old}`, `new:${line.new}`]) {
        for (const t of byLine.get(key) ?? []) {
          table.append(el("tr", {}, el("td", { colspan: 3 }, threadBox(t))));
        }
        byLine.delete(key);
      }
    }
  }
  const rest = [...byLine.values()].flat();
  return el(
    "section",
    { file: file.path },
    el("h3", {}, file.srcPath ? `${file.srcPath} → ${file.path}` : file.path),
    table,
    rest.length
      ? el(
        "div",
        {},
        el("p", { class: "muted" }, "Threads on lines not shown:"),
        rest.map(threadBox),
      )
      : null,
  );
}

function drawDiff(view) {
  const pr = view.pullRequest;
  const parts = [header(view, `#${pr.id} ${pr.title}: diff`)];
  if (view.cut) {
    const left = view.cut.omittedFiles ?? [];
    parts.push(
      el(
        "p",
        { class: "cut", field: "cut" },
        `The diff was cut at ${view.cut.maxBytes} bytes.`,
        left.length ? ` Not shown: ${left.join(", ")}.` : "",
      ),
    );
  }
  if (view.files.length === 0) {
    parts.push(el("p", { class: "muted" }, "The pull request changes nothing."));
  }
  parts.push(view.files.map(drawFile));
  parts.push(
    el(
      "div",
      { class: "row" },
      action(
        "open",
        "Back to the pull request",
        () => showPullRequest(view, pr.id),
      ),
      action("refresh", "Refresh", () => showHere("refresh_view", argsOf(view))),
      el("span", { field: "status", class: "muted" }),
    ),
  );
  return parts;
}

function drawList(view) {
  const rows = view.pullRequests.map((pr) => {
    const open = action(
      "open",
      `#${pr.id} ${pr.title}`,
      () => showPullRequest(view, pr.id),
    );
    if (open) open.dataset.pr = pr.id;
    const b = pr.builds;
    return el(
      "tr",
      { pr: pr.id },
      el("td", { field: "title" }, open ?? `#${pr.id} ${pr.title}`),
      el("td", { field: "author" }, who(pr.author)),
      el("td", { field: "state" }, pr.draft ? `${pr.state} (draft)` : pr.state),
      el(
        "td",
        { field: "reviewers" },
        pr.reviewers.map((r) => reviewerWith("div", r)),
      ),
      el(
        "td",
        { field: "builds" },
        b ? `${b.successful} ok, ${b.failed} failed, ${b.inProgress} running` : "",
      ),
      el("td", { field: "updated", class: "muted" }, when(pr.updatedDate ?? pr.createdDate)),
    );
  });
  return [
    header(view, `Pull requests (${view.state.toLowerCase()})`),
    rows.length
      ? el(
        "table",
        { class: "list" },
        el(
          "tr",
          {},
          ["Pull request", "Author", "State", "Reviewers", "Builds", "Updated"].map((h) =>
            el("th", {}, h)
          ),
        ),
        rows,
      )
      : el("p", { class: "muted" }, "No pull requests."),
    view.isLastPage ? null : el("p", { class: "muted" }, "More pull requests exist than shown."),
    el(
      "div",
      { class: "row" },
      action("refresh", "Refresh", () => showHere("refresh_view", argsOf(view))),
      el("span", { field: "status", class: "muted" }),
    ),
  ];
}
