// The bitbucket-mcp view, part 5 of 8:
// a pull request's comment threads, where the person replies, resolves and
// reopens threads and resolves tasks, each through the server's own tools.
// `deno task generate` joins the parts, in view.html's order, into one script.
// deno-lint-ignore-file no-unused-vars

/** Where a thread sits, in words: a line, a file, or the pull request as a whole. */
function whereOf(anchor) {
  if (!anchor) return "General";
  const at = anchor.line === undefined ? anchor.path : `${anchor.path}:${anchor.line}`;
  return anchor.orphaned ? `${at} (outdated)` : at;
}

/** One comment of a thread: who, when, a task's badge, the text, and its own buttons. */
function commentBox(view, c, depth, buttons) {
  const task = c.severity === "BLOCKER";
  return el(
    "div",
    { class: "comment", comment: c.id, depth, task: task ? c.state ?? "OPEN" : undefined },
    el(
      "div",
      { class: "row muted" },
      el("strong", {}, who(c.author)),
      when(c.createdDate),
      task ? el("span", { class: "badge" }, c.state === "RESOLVED" ? "task done" : "task") : null,
    ),
    markdown(c.text),
    el("div", { class: "row" }, buttons),
  );
}

function drawThreads(view) {
  const pr = view.pullRequest;
  const args = { project: view.project, repo: view.repo, pr_id: pr.id };
  const edit = (id, change) => () =>
    callTool("update_pr_comment", { ...args, comment_id: id, ...change });
  const taskButton = (c) =>
    c.severity !== "BLOCKER" ? null : c.state === "RESOLVED"
      ? writes(
        "reopen-task",
        "Reopen task",
        "update_pr_comment",
        edit(c.id, {
          task_state: "OPEN",
        }),
        `You reopened a task on #${pr.id}`,
      )
      : writes(
        "resolve-task",
        "Resolve task",
        "update_pr_comment",
        edit(c.id, {
          task_state: "RESOLVED",
        }),
        `You resolved a task on #${pr.id}`,
      );
  const threadOf = (t) => {
    const depth = new Map([[t.id, 0]]);
    const replies = t.replies.map((r) => {
      depth.set(r.id, (depth.get(r.parentId) ?? 0) + 1);
      return commentBox(view, r, Math.min(depth.get(r.id), 4), taskButton(r));
    });
    const resolve = view.canResolve
      ? writes(
        t.threadResolved ? "reopen" : "resolve",
        t.threadResolved ? "Reopen" : "Resolve",
        "update_pr_comment",
        edit(t.id, { thread_resolved: !t.threadResolved }),
        `You ${t.threadResolved ? "reopened" : "resolved"} a thread on #${pr.id}`,
      )
      : null;
    return el(
      "section",
      { class: "thread", thread: t.id, resolved: t.threadResolved },
      el("h3", {}, whereOf(t.anchor)),
      t.lines?.length ? el("table", { class: "diff" }, t.lines.map(lineRow)) : null,
      commentBox(view, t, 0, [taskButton(t), resolve]),
      replies,
      composer(
        "reply",
        "Reply",
        "A reply (Markdown)",
        async (text) => {
          await callTool("add_pr_comment", { ...args, text, parent_id: t.id });
          tell(`You replied to a comment on #${pr.id}`);
          await refresh();
          say("Replied.");
        },
        true,
      ),
    );
  };
  const open = view.threads.filter((t) => !t.threadResolved);
  const done = view.threads.filter((t) => t.threadResolved);
  return [
    header(view, `#${pr.id} ${pr.title}: threads`),
    el("p", { class: "muted", field: "counts" }, `${open.length} open, ${done.length} resolved`),
    open.length ? open.map(threadOf) : el("p", { class: "muted" }, "No open threads."),
    done.length
      ? el("details", {}, el("summary", {}, `Resolved (${done.length})`), done.map(threadOf))
      : null,
    view.isLastPage ? null : el("p", { class: "muted" }, "More threads exist than shown."),
    statusRow(
      opens(view, "pull_request", "Back to the pull request", "open"),
      opens(view, "diff", "Open the diff"),
      action("refresh", "Refresh", refresh),
    ),
  ];
}
