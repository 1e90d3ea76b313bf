// The bitbucket-mcp view, part 7 of 8:
// a view that keeps itself current, and that tells the model what happened.
// While something is in motion (builds running, a pull request open) the
// page calls refresh_view with the view's fingerprint: soon while things
// change, then less and less often while nothing does, never while hidden.
// A change is drawn in place, or offered when the person is reading a diff
// or writing; either way the model gets one short line through
// ui/update-model-context, as it does when the person acts. Selected diff
// lines go to the chat as "path:start-end" and the lines (ui/message).
// `deno task generate` joins the parts, in view.html's order, into one script.
// deno-lint-ignore-file no-unused-vars

/** The first wait while builds run, and while merely open; the longest wait; the growth per quiet poll. */
const FAST = 3000;
const SLOW = 20000;
const LONGEST = 300000;
const GROWTH = 1.6;
const live = { timer: 0, wait: 0, base: null, stopped: false };
/** The latest lines told to the model: each update replaces the last, so the few newest go together. */
const told = [];

/** Tells the model one short line (with the few before it) for its next turn. */
function tell(line) {
  if (!host.updateModelContext) return;
  told.push(line);
  if (told.length > 5) told.shift();
  request("ui/update-model-context", {
    content: [{ type: "text", text: told.join("\n") }],
  }).catch(() => {});
}

/** How soon to look again at `view`: FAST while builds run, SLOW while open, 0 when nothing moves. */
function motion(view) {
  const open = view.pullRequest?.state === "OPEN";
  switch (view.kind) {
    case "pull_request":
      return view.builds?.some((b) => b.state === "INPROGRESS") ? FAST : open ? SLOW : 0;
    case "diff":
    case "threads":
      return open ? SLOW : 0;
    case "pull_requests":
      return view.pullRequests.some((p) => p.builds?.inProgress) ? FAST : SLOW;
    default:
      return 0;
  }
}

/** Plans the next look: soon after a change, later after each quiet one; not while hidden. */
function schedule(changed) {
  clearTimeout(live.timer);
  live.timer = 0;
  const base = live.base && host.serverTools && !live.stopped ? motion(live.base) : 0;
  if (!base || document.visibilityState === "hidden") return;
  live.wait = changed || !live.wait ? base : Math.min(LONGEST, Math.max(base, live.wait * GROWTH));
  live.timer = setTimeout(poll, live.wait);
}

/** A view just drawn: the one to keep current from now on. */
function watch(view) {
  live.base = view;
  live.wait = 0;
  schedule(true);
}

async function poll() {
  live.timer = 0;
  const seen = live.base;
  let result;
  try {
    result = await callTool("refresh_view", { ...argsOf(seen), fingerprint: seen.fingerprint });
  } catch {
    return schedule(false);
  }
  const next = result.structuredContent?.view;
  if (live.base !== seen) return; // the person opened another view meanwhile
  if (!next || next.kind !== seen.kind) return schedule(false);
  const lines = changesBetween(seen, next);
  if (lines.length) tell(lines.join("; "));
  const reading = seen.kind === "diff" && seen.pullRequest.head !== next.pullRequest.head;
  const writing = [...root.querySelectorAll("textarea, input")].some((b) => b.value.trim());
  if (reading || writing) {
    offer(result, reading ? "New commits: show" : "This changed: show");
    live.base = next;
    return schedule(true);
  }
  drawResult(result);
}

/** A change the person chooses to see: a button above the view. */
function offer(result, label) {
  root.querySelector('[data-field="offer"]')?.remove();
  const button = el("button", { action: "show-new", field: "offer", class: "offer" }, label);
  button.type = "button";
  button.addEventListener("click", () => drawResult(result));
  root.prepend(button);
}

const short = (commit) => String(commit ?? "").slice(0, 7);
const VERBS = {
  FAILED: "failed",
  SUCCESSFUL: "passed",
  INPROGRESS: "started",
  CANCELLED: "was cancelled",
};
const VERDICTS = {
  APPROVED: "approved",
  NEEDS_WORK: "asked for changes on",
  UNAPPROVED: "withdrew from",
};

/** What changed between two views of one thing, one short phrase each. */
function changesBetween(old, next) {
  const out = [];
  const pr = next.pullRequest;
  if (pr && old.pullRequest) {
    if (pr.state !== old.pullRequest.state) out.push(`#${pr.id} is now ${pr.state.toLowerCase()}`);
    const head = pr.head ?? pr.fromRef?.latestCommit;
    const was = old.pullRequest.head ?? old.pullRequest.fromRef?.latestCommit;
    if (head && was && head !== was) out.push(`New commits on #${pr.id}: ${short(head)}`);
  }
  if (next.kind === "pull_request") {
    const head = short(pr.fromRef.latestCommit);
    const before = new Map((old.builds ?? []).map((b) => [b.key, b.state]));
    for (const b of next.builds ?? []) {
      if (before.get(b.key) !== b.state) {
        out.push(`Build ${b.key} ${VERBS[b.state] ?? b.state.toLowerCase()} on ${head}`);
      }
    }
    const verdicts = new Map(old.pullRequest.reviewers.map((r) => [r.name, r.status]));
    for (const r of pr.reviewers) {
      if ((verdicts.get(r.name) ?? "UNAPPROVED") !== r.status) {
        out.push(`${who(r)} ${VERDICTS[r.status] ?? r.status} #${pr.id}`);
      }
    }
    if (old.merge && next.merge && old.merge.canMerge !== next.merge.canMerge) {
      out.push(`#${pr.id} ${next.merge.canMerge ? "can" : "cannot"} merge now`);
    }
  }
  if (next.kind === "threads") {
    const count = (v) => v.threads.reduce((n, t) => n + 1 + t.replies.length, 0);
    if (count(next) > count(old)) out.push(`New comments on #${pr.id}`);
  }
  if (next.kind === "pull_requests") {
    const ids = new Set(old.pullRequests.map((p) => p.id));
    for (const p of next.pullRequests) if (!ids.has(p.id)) out.push(`New pull request #${p.id}`);
  }
  return out;
}

/** The host tears the view down: no more looks. */
function stopLive() {
  live.stopped = true;
  clearTimeout(live.timer);
  live.timer = 0;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") {
    clearTimeout(live.timer);
    live.timer = 0;
  } else if (live.base && !live.timer && motion(live.base)) {
    poll();
  }
});

// --- diff lines to the chat ----------------------------------------------------

/** The diff rows the person selected, all in the file the selection starts in. */
function selectedRows() {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || current?.kind !== "diff") return [];
  const range = selection.getRangeAt(0);
  const rows = [...root.querySelectorAll("section[data-file] tr[data-line-type]")]
    .filter((row) => range.intersectsNode(row));
  const file = rows[0]?.closest("section[data-file]");
  return rows.filter((row) => row.closest("section[data-file]") === file);
}

/** "path:start-end" and the lines, fenced, as the person's message. */
function linesMessage(rows) {
  const path = rows[0].closest("section[data-file]").dataset.file;
  const side = rows.some((r) => r.dataset.new) ? "new" : "old";
  const numbers = rows.map((r) => Number(r.dataset[side])).filter((n) => n > 0);
  const first = Math.min(...numbers);
  const last = Math.max(...numbers);
  const span = first === last ? `${first}` : `${first}-${last}`;
  const text = rows.map((r) => r.querySelector(".code").textContent);
  const ticks = Math.max(
    3,
    ...text.map((t) => (t.match(/`+/g) ?? []).reduce((n, m) => Math.max(n, m.length + 1), 0)),
  );
  const fence = "`".repeat(ticks);
  const pr = current.pullRequest;
  return {
    where: `${path}:${side === "old" ? "old " : ""}${span}`,
    text: `${path}:${
      side === "old" ? "old " : ""
    }${span} (pull request #${pr.id} of ${current.project}/${current.repo})\n${fence}diff\n${
      text.join("\n")
    }\n${fence}`,
  };
}

document.addEventListener("selectionchange", () => {
  root.querySelector('[data-field="send-lines"]')?.remove();
  if (!host.message) return;
  const rows = selectedRows();
  if (!rows.length) return;
  const { where, text } = linesMessage(rows);
  const button = el(
    "button",
    { action: "send-lines", field: "send-lines", class: "float" },
    `Add ${where} to the chat`,
  );
  button.type = "button";
  button.addEventListener("mousedown", (event) => event.preventDefault());
  button.addEventListener("click", () => {
    request("ui/message", { role: "user", content: [{ type: "text", text }] })
      .then((r) =>
        say(r?.isError ? "The host did not take the lines." : `Sent ${where} to the chat.`)
      )
      .catch((e) => say(e.message));
    document.getSelection()?.removeAllRanges();
  });
  root.append(button);
});
