/** What a view of each kind reads, loaded on the first view so start-up and listing load none of it. */
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import type { View } from "./_view_shape.ts";
import { pullRequestView } from "./_pull_request_view.ts";
import { diffView } from "./_diff_view.ts";
import { pullRequestsView } from "./_list_view.ts";
import { threadsView } from "./_threads_view.ts";
import { type Draft, formView } from "./_form_view.ts";

/** The arguments of a view. */
export interface ViewArgs extends Draft {
  kind: View["kind"];
  project: string;
  repo: string;
  pr_id?: number;
  state?: string;
}

/** The write tools each kind's buttons call: a button is drawn only while its tool is exposed. */
const ACTIONS: Readonly<Record<View["kind"], readonly string[]>> = {
  pull_request: ["submit_pr_review", "add_pr_comment"],
  diff: [],
  threads: ["add_pr_comment", "update_pr_comment"],
  pull_requests: [],
  pull_request_form: ["submit_pr_form"],
};

/** The view `args` asks for, read now; the repository it names as results show it (`visibleId`). */
export async function drawView(
  args: ViewArgs,
  bitbucket: BitbucketClient,
  exposed: ReadonlySet<string>,
): Promise<View> {
  const view = await readView(args, bitbucket, exposed);
  const actions = ACTIONS[view.kind].filter((name) => exposed.has(name));
  const shown = { ...view, project: visibleId(view.project), repo: visibleId(view.repo) };
  return actions.length > 0 ? { ...shown, actions } : shown;
}

/** The view `args` asks for, its data as read. */
async function readView(
  args: ViewArgs,
  bitbucket: BitbucketClient,
  exposed: ReadonlySet<string>,
): Promise<View> {
  const { kind, project, repo, pr_id } = args;
  if (kind === "pull_requests") {
    return await pullRequestsView(bitbucket, project, repo, args.state ?? "OPEN", exposed);
  }
  if (kind === "pull_request_form") {
    return await formView(bitbucket, project, repo, pr_id, args, exposed);
  }
  if (pr_id === undefined) {
    throw new Error(
      `Cannot show a ${kind} view: it needs pr_id (hint: list_pull_requests finds the pull request's id)`,
    );
  }
  const target = { project, repo, pr_id };
  if (kind === "diff") return await diffView(bitbucket, target);
  if (kind === "threads") return await threadsView(bitbucket, target, exposed);
  return await pullRequestView(bitbucket, target, exposed);
}
