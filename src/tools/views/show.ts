/**
 * The view tools: `show`, which the model calls once it has found what the
 * person asked about, and `refresh_view`, the same read for the page alone
 * (visibility `["app"]`, never listed to the model). Both answer a client
 * that did not declare MCP Apps with one line saying nothing was shown,
 * fetching nothing; the data code loads on the first view.
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

/** Which data tools each kind reads through: a kind is offered only while they are exposed. */
export const KIND_NEEDS: Readonly<Record<typeof KINDS[number], readonly string[]>> = {
  pull_request: ["get_pull_request"],
  diff: ["get_pr_diff", "list_pr_comments"],
  pull_requests: ["list_pull_requests"],
};

const STATES = ["OPEN", "MERGED", "DECLINED", "ALL"] as const;

const ShowArgs = RepoArgs.extend({
  kind: z.enum(KINDS),
  pr_id: idArg().optional(),
  state: z.enum(STATES).optional().describe("pull_requests: default OPEN"),
});

const ShowOut = z.object({
  shown: z.boolean().describe("False: the client draws no views, and nothing was fetched"),
  view: ViewOut.optional(),
});

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
    case "pull_requests":
      return `Shown to the person: ${view.pullRequests.length} ${view.state.toLowerCase()} pull request(s) of ${where}.`;
  }
}

async function draw(args: z.infer<typeof ShowArgs>, ctx: ToolContext) {
  if (!ctx.apps) return { shown: false };
  const { drawView } = await import("./_draw.ts");
  return { shown: true, view: await drawView(args, ctx.bitbucket, ctx.exposed ?? new Set()) };
}

const common = {
  reach: "repository" as const,
  defaultFor: "view" as const,
  access: READ_ONLY,
  input: ShowArgs,
  output: ShowOut,
  choices: { arg: "kind", needs: KIND_NEEDS },
  document: (out: z.infer<typeof ShowOut>) => out.view ? viewLine(out.view) : NOTHING_SHOWN,
  resultMeta: (out: z.infer<typeof ShowOut>): Record<string, unknown> =>
    out.view ? { [VIEW_META]: { version: out.view.version, kind: out.view.kind } } : {},
  handler: draw,
};

export const show = defineTool({
  ...common,
  name: "show",
  title: "Show a view",
  description: "Show the person a pull request, its diff with threads, or a list, beside the chat.",
  meta: viewToolMeta(),
});

export const refreshView = defineTool({
  ...common,
  name: "refresh_view",
  title: "Refresh a view",
  description: "The page's own refresh of a view (not for the model).",
  meta: viewToolMeta(["app"]),
});
