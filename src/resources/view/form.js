// The bitbucket-mcp view, part 6 of 8:
// the pull request form: the model drafted it, the person edits every field
// and submits it. Showing it wrote nothing; the submit calls the page's own
// tool (submit_pr_form) with exactly what the form holds, once the page's
// checks pass (each failure shown next to its field, nothing sent).
// `deno task generate` joins the parts, in view.html's order, into one script.
// deno-lint-ignore-file no-unused-vars

const LIMITS = { title: 255, branch: 1024, description: 32768, reviewer: 255, reviewers: 50 };
let uniqueId = 0;

/** An input or textarea holding `value` as its value (never parsed), with its error line. */
function input(name, label, value, { area = false, list, placeholder } = {}) {
  const box = document.createElement(area ? "textarea" : "input");
  box.dataset.input = name;
  box.value = value ?? "";
  box.id = `f-${name}`;
  if (placeholder) box.placeholder = placeholder;
  if (area) box.rows = 8;
  if (list) box.setAttribute("list", list);
  const caption = el("label", {}, label);
  caption.htmlFor = box.id;
  return { box, row: el("div", { class: "field" }, caption, box, el("p", { error: name })) };
}

/** A datalist of `values`, by id. */
function options(id, values, labels = []) {
  const list = el("datalist", {});
  list.id = id;
  list.replaceChildren(...values.map((v, i) => {
    const option = document.createElement("option");
    option.value = v;
    if (labels[i]) option.label = labels[i];
    return option;
  }));
  return list;
}

/** Calls `run` once typing in `box` pauses. */
function onPause(box, run) {
  let timer = 0;
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => run().catch(() => {}), 300);
  });
}

function drawForm(view) {
  const f = view.fields;
  const pr = view.pullRequest;
  const where = { project: view.project, repo: view.repo };
  const branchList = `b-${++uniqueId}`;
  const userList = `u-${++uniqueId}`;
  let reviewers = f.reviewers.map((r) => ({ ...r }));
  let defaults = view.defaults;
  const title = input("title", "Title", f.title);
  const from = input("from_branch", "From branch", f.fromBranch, { list: branchList });
  const to = input("to_branch", "Into branch", f.toBranch, { list: branchList });
  const description = input("description", "Description (Markdown)", f.description, {
    area: true,
  });
  const adding = input("reviewer", "Add a reviewer", "", {
    list: userList,
    placeholder: "username",
  });
  from.box.readOnly = Boolean(pr);
  const chips = el("ul", { class: "chips", field: "reviewers" });
  const conditions = el("p", { class: "muted", field: "conditions" });
  const branches = options(branchList, view.branches?.names ?? []);
  const users = options(userList, []);
  const draft = document.createElement("input");
  draft.type = "checkbox";
  draft.checked = f.draft;
  draft.dataset.input = "draft";

  const drawChips = () => {
    chips.replaceChildren(...reviewers.map((r) => {
      const remove = el("button", { action: "remove-reviewer", reviewer: r.name }, "×");
      remove.type = "button";
      remove.title = `Remove ${r.name}`;
      remove.addEventListener("click", () => {
        reviewers = reviewers.filter((x) => x !== r);
        drawChips();
      });
      return el(
        "li",
        { reviewer: r.name, default: r.isDefault },
        who(r),
        r.displayName ? el("span", { class: "muted" }, ` ${r.name}`) : null,
        r.status ? el("span", { class: "badge" }, r.status) : null,
        r.isDefault ? el("span", { class: "badge" }, "default") : null,
        remove,
      );
    }));
    const rules = defaults?.conditions ?? [];
    const names = new Map((defaults?.reviewers ?? []).map((u) => [u.name, who(u)]));
    conditions.textContent = rules.map((c) =>
      `${c.requiredApprovals} of ${
        c.reviewers.map((n) => names.get(n) ?? n).join(", ")
      } must approve.`
    ).join(" ");
  };
  const add = () => {
    const name = adding.box.value.trim();
    if (!name) return;
    if (!reviewers.some((r) => r.name.toLowerCase() === name.toLowerCase())) {
      reviewers.push({ name });
    }
    adding.box.value = "";
    drawChips();
  };
  adding.box.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      add();
    }
  });
  if (view.findUsers && host.serverTools) {
    onPause(adding.box, async () => {
      const filter = adding.box.value.trim();
      if (filter.length < 2) return;
      const found = (await callTool("find_users", { filter, limit: 10 })).structuredContent;
      const list = found?.users ?? [];
      users.replaceChildren(...options("", list.map((u) => u.name), list.map(who)).children);
    });
  }
  if (view.branches && !view.branches.complete && host.serverTools) {
    for (const box of [from.box, to.box]) {
      onPause(box, async () => {
        const filter = box.value.trim();
        if (!filter) return;
        const found = (await callTool("list_branches", { ...where, filter, limit: 25 }))
          .structuredContent;
        const names = (found?.branches ?? []).map((b) => b.displayId);
        branches.replaceChildren(...options("", names).children);
      });
    }
  }
  // A new pull request's default reviewers follow the branches chosen.
  if (!pr && view.defaults && host.serverTools) {
    for (const box of [from.box, to.box]) {
      box.addEventListener("change", async () => {
        if (!from.box.value.trim() || !to.box.value.trim()) return;
        const args = {
          kind: "pull_request_form",
          ...where,
          from_branch: from.box.value.trim(),
          to_branch: to.box.value.trim(),
        };
        const next = (await callTool("refresh_view", args).catch(() => null))
          ?.structuredContent?.view?.defaults;
        if (!next) return;
        defaults = next;
        const kept = reviewers.filter((r) => !r.isDefault);
        const more = next.reviewers.filter((u) =>
          !kept.some((r) => r.name.toLowerCase() === u.name.toLowerCase())
        ).map((u) => ({ ...u, isDefault: true }));
        reviewers = [...kept, ...more];
        drawChips();
      });
    }
  }

  /** The page's checks: each failure next to its field; true when none failed. */
  const check = () => {
    const errors = {};
    const t = title.box.value.trim();
    if (!t) errors.title = "A title is needed.";
    else if (t.length > LIMITS.title) errors.title = `At most ${LIMITS.title} characters.`;
    const source = from.box.value.trim();
    const target = to.box.value.trim();
    const known = view.branches?.complete ? new Set(view.branches.names) : undefined;
    for (const [name, value] of [["from_branch", source], ["to_branch", target]]) {
      if (!value) errors[name] = "Choose a branch.";
      else if (value.length > LIMITS.branch) errors[name] = `At most ${LIMITS.branch} characters.`;
      else if (known && !known.has(value)) errors[name] = "No such branch in this repository.";
    }
    if (!errors.to_branch && source && source === target) {
      errors.to_branch = "The target must differ from the source.";
    }
    if (description.box.value.length > LIMITS.description) {
      errors.description = `At most ${LIMITS.description} characters.`;
    }
    const long = reviewers.find((r) => r.name.length > LIMITS.reviewer);
    if (long) errors.reviewers = `A username has at most ${LIMITS.reviewer} characters.`;
    if (reviewers.length > LIMITS.reviewers) {
      errors.reviewers = `At most ${LIMITS.reviewers} reviewers.`;
    }
    for (const line of root.querySelectorAll("[data-error]")) {
      line.textContent = errors[line.dataset.error] ?? "";
    }
    return Object.keys(errors).length === 0;
  };

  /** What the submit sends: everything for a new pull request, only what changed for an edit. */
  const submission = (asDraft) => {
    const names = reviewers.map((r) => r.name);
    const values = {
      title: title.box.value.trim(),
      description: description.box.value,
      to_branch: to.box.value.trim(),
    };
    if (!pr) {
      return {
        ...where,
        action: "create",
        ...values,
        description: values.description || undefined,
        from_branch: from.box.value.trim(),
        reviewers: names,
        draft: asDraft || undefined,
      };
    }
    const changed = { ...where, action: "update", pr_id: pr.id, version: pr.version };
    if (values.title !== f.title) changed.title = values.title;
    if (values.description !== f.description) changed.description = values.description;
    if (values.to_branch !== f.toBranch) changed.to_branch = values.to_branch;
    if (names.join("\n") !== f.reviewers.map((r) => r.name).join("\n")) changed.reviewers = names;
    if (view.canDraft && draft.checked !== f.draft) changed.draft = draft.checked;
    return changed;
  };

  const submit = (asDraft) => async () => {
    if (!check()) return say("Nothing was sent: see the fields marked.");
    let result;
    try {
      result = await callTool("submit_pr_form", submission(asDraft));
    } catch (e) {
      const field = /reviewer/i.test(e.message) ? "reviewers" : undefined;
      const line = field && root.querySelector(`[data-error="${field}"]`);
      if (line) line.textContent = e.message;
      throw e;
    }
    const made = result.structuredContent.pullRequest;
    tell(
      pr
        ? `You updated pull request #${made.id}`
        : `You created pull request #${made.id} (${made.fromRef.displayId} → ${made.toRef.displayId})${
          made.draft ? " as a draft" : ""
        }`,
    );
    if ((view.kinds ?? []).includes("pull_request")) {
      await showHere("refresh_view", { kind: "pull_request", ...where, pr_id: made.id });
    }
    say(pr ? `Updated #${made.id}.` : `Created #${made.id}.`);
  };

  drawChips();
  const primary = f.draft && !pr ? "create-draft" : pr ? "update" : "create";
  const buttons = pr ? [action("update", "Update", submit(false))] : [
    action("create", "Create", submit(false)),
    view.canDraft ? action("create-draft", "Create as draft", submit(true)) : null,
  ];
  for (const b of buttons) if (b && b.dataset.action === primary) b.classList.add("primary");
  return [
    header(
      view,
      pr ? `Edit pull request #${pr.id}` : "New pull request",
    ),
    el(
      "p",
      { class: "muted" },
      "Drafted for you: change anything, then submit. Nothing is written until you do.",
    ),
    el(
      "div",
      { class: "form" },
      title.row,
      el("div", { class: "row" }, from.row, to.row),
      description.row,
      el(
        "div",
        { class: "field" },
        el("label", {}, "Reviewers"),
        chips,
        el("p", { error: "reviewers" }),
        conditions,
        el("div", { class: "row adding" }, adding.box, action("add-reviewer", "Add", () => add())),
      ),
      pr && view.canDraft ? el("label", { class: "row" }, draft, "Draft") : null,
      branches,
      users,
    ),
    statusRow(...buttons),
  ];
}
