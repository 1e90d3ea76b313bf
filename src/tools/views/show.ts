/**
 * The view tools: `show`, which the model calls once it has found what the
 * person asked about, and `refresh_view`, the same read for the page alone
 * (visibility `["app"]`, never listed to the model), which also takes the
 * view's fingerprint and answers `unchanged` when nothing drawn changed. Both
 * answer a client that did not declare MCP Apps with one line saying nothing
 * was shown, fetching nothing; the data code loads on the first view.
 */
import { z } from "../../deps/zod.ts";
import {
  defineTool,
  idArg,
  READ_ONLY,
  RepoArgs,
  type ToolContext,
  VIEW_META,
  viewToolMeta,
} from "../kit/mod.ts";
import { KINDS, type View, ViewOut } from "./_view_shape.ts";
import { FORM_FIELDS, SUBMIT_FORM } from "./submit_form.ts";

/** Which tools each kind reads through (or, a form, submits through): a kind is offered only while they are exposed. */
export const KIND_NEEDS: Readonly<Record<typeof KINDS[number], readonly string[]>> = {
  pull_request: ["get_pull_request"],
  diff: ["get_pr_diff", "list_pr_comments"],
  threads: ["get_pull_request", "list_pr_comments"],
  pull_requests: ["list_pull_requests"],
  pull_request_form: [SUBMIT_FORM, "create_pull_request", "update_pull_request"],
};

const STATES = ["OPEN", "MERGED", "DECLINED", "ALL"] as const;

/**
 * What the model gives: the view's target, and for a form the draft, every
 * field optional (the person edits it all). A list shows the open pull
 * requests; the page switches state itself.
 */
const ShowArgs = RepoArgs.extend({
  kind: z.enum(KINDS),
  pr_id: idArg().optional(),
  ...FORM_FIELDS,
});

/** What the page gives besides: a list's state, and the fingerprint of the view it draws. */
const RefreshArgs = ShowArgs.extend({
  state: z.enum(STATES).optional(),
  fingerprint: z.string().max(64).optional(),
});

const ShowOut = z.object({
  shown: z.boolean().describe("False: the client draws no views, and nothing was fetched"),
  view: ViewOut.optional(),
  unchanged: z.boolean().optional().describe("The fingerprint given is still the view's"),
});

type Out = z.infer<typeof ShowOut>;

/** What the model reads when nothing could be drawn. */
export const NOTHING_SHOWN =
  "Nothing was shown: this client did not declare MCP Apps (io.modelcontextprotocol/ui), so nothing was fetched; use the data tools instead.";

/** The one line the model reads for a view drawn. */
export function viewLine(view: View): string {
  const where = `${view.project}/${view.repo}`;
  switch (view.kind) {
    case "pull_request":
      return `Shown to the person: pull request #${view.pullRequest.id} of ${where}.`;
    case "diff":
      return `Shown to the person: the diff of pull request #${view.pullRequest.id} of ${where}, ${view.files.length} file(s)${
        view.cut ? ", cut" : ""
      }.`;
    case "threads": {
      const open = view.threads.filter((t) => !t.threadResolved).length;
      return `Shown to the person: the ${view.threads.length} comment thread(s) of pull request #${view.pullRequest.id} of ${where}, ${open} open.`;
    }
    case "pull_requests":
      return `Shown to the person: ${view.pullRequests.length} ${view.state.toLowerCase()} pull request(s) of ${where}.`;
    case "pull_request_form": {
      const { fields, pullRequest } = view;
      const what = pullRequest
        ? `pull request #${pullRequest.id} of ${where}`
        : `a pull request from ${
          fields.fromBranch || "(a branch they choose)"
        } into ${fields.toBranch} in ${where}`;
      return `Shown to the person: a form to ${
        pullRequest ? "update" : "create"
      } ${what}; nothing is written unless they submit it.`;
    }
  }
}

/** A short digest of what a view draws: equal digests, nothing to redraw. */
async function fingerprintOf(view: View): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(view));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function draw(args: z.infer<typeof RefreshArgs>, ctx: ToolContext): Promise<Out> {
  if (!ctx.apps) return { shown: false };
  const { drawView } = await import("./_draw.ts");
  const exposed = ctx.exposed ?? new Set();
  const drawn = await drawView(args, ctx.bitbucket, exposed);
  const kinds = KINDS.filter((k) => KIND_NEEDS[k].every((name) => exposed.has(name)));
  const view = { ...drawn, kinds };
  const fingerprint = await fingerprintOf(view);
  if (args.fingerprint === fingerprint) return { shown: true, unchanged: true };
  return { shown: true, view: { ...view, fingerprint } };
}

const common = {
  reach: "repository" as const,
  defaultFor: "view" as const,
  access: READ_ONLY,
  output: ShowOut,
  choices: { arg: "kind", needs: KIND_NEEDS },
  document: (out: Out) =>
    out.view ? viewLine(out.view) : out.unchanged ? "Unchanged." : NOTHING_SHOWN,
  resultMeta: (out: Out): Record<string, unknown> =>
    out.view ? { [VIEW_META]: { version: out.view.version, kind: out.view.kind } } : {},
  handler: draw,
};

export const show = defineTool({
  ...common,
  name: "show",
  title: "Show a view",
  description:
    "Show the person a pull request, its diff or threads, a list, or a pull request form they submit (writes nothing).",
  input: ShowArgs,
  meta: viewToolMeta(),
});

export const refreshView = defineTool({
  ...common,
  name: "refresh_view",
  title: "Refresh a view",
  description: "The page's own refresh of a view (not for the model).",
  input: RefreshArgs,
  meta: viewToolMeta(["app"]),
});
