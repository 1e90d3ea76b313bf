// The bitbucket-mcp view, part 4 of 8:
// the kinds that look: a pull request, a diff, a list.
// `deno task generate` joins the parts, in view.html's order, into the
// page's one strict script (one function scope): what one part defines, the
// others use.
// deno-lint-ignore-file no-unused-vars
// --- looking: a pull request, a diff, a list -----------------------------------

function drawPullRequest(view) {
  const pr = view.pullRequest;
  const args = { project: view.project, repo: view.repo, pr_id: pr.id };
  const review = (verdict) => () => callTool("submit_pr_review", { ...args, action: verdict });
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
  if (view.changes) {
    const { files, complete } = view.changes;
    parts.push(el("h2", {}, `Files (${files.length}${complete ? "" : "+"})`));
    parts.push(listOr(files, (f) =>
      el(
        "li",
        { change: f.path, type: f.type },
        action("open-file", f.srcPath ? `${f.srcPath} → ${f.path}` : f.path, () =>
          showPullRequest(view, pr.id, "diff", f.path)) ?? f.path,
        " ",
        el("span", { class: "badge" }, f.type),
      ), "No files changed."));
  }
  parts.push(
    statusRow(
      writes(
        "approve",
        "Approve",
        "submit_pr_review",
        review("APPROVE"),
        `You approved #${pr.id}`,
      ),
      writes(
        "needs-work",
        "Request changes",
        "submit_pr_review",
        review("NEEDS_WORK"),
        `You asked for changes on #${pr.id}`,
      ),
      opens(view, "diff", "Open the diff"),
      opens(view, "threads", "Threads"),
      action("refresh", "Refresh", refresh),
    ),
    composer("comment", "Comment", "A comment on the pull request (Markdown)", async (text) => {
      await callTool("add_pr_comment", { ...args, text });
      tell(`You commented on #${pr.id}`);
      await refresh();
      say("Commented.");
    }),
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

/** A diff line as a table row, its numbers kept for the selection. */
function lineRow(line) {
  const sign = line.type === "ADDED" ? "+" : line.type === "REMOVED" ? "-" : " ";
  return el(
    "tr",
    { lineType: line.type, old: line.old, new: line.new },
    el("td", { class: "n" }, line.old ?? ""),
    el("td", { class: "n" }, line.new ?? ""),
    el("td", { class: "code" }, sign + line.text),
  );
}

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
      table.append(lineRow(line));
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
  if (host.message && view.files.length) {
    parts.push(el("p", { class: "muted" }, "Select lines to add them to the chat."));
  }
  parts.push(view.files.map(drawFile));
  parts.push(
    statusRow(
      opens(view, "pull_request", "Back to the pull request", "open"),
      opens(view, "threads", "Threads"),
      action("refresh", "Refresh", refresh),
    ),
  );
  return parts;
}

const STATES = ["OPEN", "MERGED", "DECLINED", "ALL"];

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
  const states = STATES.map((s) =>
    s === view.state ? el("strong", {}, s.toLowerCase()) : action(
      `state-${s.toLowerCase()}`,
      s.toLowerCase(),
      () => showHere("refresh_view", { ...argsOf(view), state: s }),
    )
  );
  return [
    header(view, `Pull requests (${view.state.toLowerCase()})`),
    el("div", { class: "row", field: "states" }, states),
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
    statusRow(action("refresh", "Refresh", refresh)),
  ];
}
