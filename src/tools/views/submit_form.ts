/**
 * `submit_pr_form`: the pull request form's own submit (visibility
 * `["app"]`, never listed to the model). It creates or updates the pull
 * request with exactly the fields the person submitted, through the same
 * policy as every tool (confinement, audit, the administrator's policy,
 * `--read-only`), and asks nothing more: the person's press is the decision.
 * A client that did not declare MCP Apps has no view, so it is refused.
 */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { requireFeature } from "../../bitbucket/features.ts";
import {
  openPullRequest,
  prPath,
  readPullRequest,
  refusedReviewers,
  targetRef,
  updateOf,
  updatePullRequestFields,
} from "../../bitbucket/pull_requests.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";
import {
  defineTool,
  idArg,
  PullRequestOut,
  pullRequestOut,
  refArg,
  RepoArgs,
  safeWrite,
  textArg,
  TitleArg,
  viewToolMeta,
} from "../kit/mod.ts";

/** The tool's name: the form kind is offered only while it is exposed. */
export const SUBMIT_FORM = "submit_pr_form";

/**
 * A pull request form's fields, each optional (the person edits them all):
 * what `show` takes as the model's draft and what the submit sends.
 */
export const FORM_FIELDS = {
  title: TitleArg.optional(),
  description: textArg().optional(),
  from_branch: refArg().optional(),
  to_branch: refArg().optional(),
  reviewers: z.array(TitleArg).max(50).optional(),
  draft: z.boolean().optional(),
};

const SubmitArgs = RepoArgs.extend({
  action: z.enum(["create", "update"]),
  pr_id: idArg().optional(),
  version: z.number().int().min(0).optional().describe("update: the version the form showed"),
  ...FORM_FIELDS,
});

type Args = z.infer<typeof SubmitArgs>;

/** A refusal of reviewers, naming them, or the failure as Bitbucket's during `action`. */
function reviewersOr(action: string): (error: unknown) => never {
  return (error) => {
    const refused = refusedReviewers(error);
    if (refused) {
      throw new Error(
        `Cannot ${action}: Bitbucket refused the reviewer(s) ${
          refused.join(", ")
        } (hint: each must be an active user with access to the repository)`,
      );
    }
    return rethrowDuring(action)(error);
  };
}

async function create(bitbucket: BitbucketClient, args: Args) {
  const { project, repo, title, from_branch, to_branch, description, reviewers, draft } = args;
  const action = `create the pull request in ${project}/${repo}`;
  if (title === undefined || from_branch === undefined) {
    throw new Error(`Cannot ${action}: title and from_branch are required`);
  }
  // Below 8.18 the draft flag is ignored: the reviewers would be notified of a normal pull request.
  if (draft) await requireFeature(bitbucket, "draftPullRequests", "open a draft pull request");
  const toRef = await targetRef(bitbucket, project, repo, to_branch);
  return await openPullRequest(bitbucket, project, repo, {
    title,
    description,
    draft,
    fromRef: qualifyBranch(from_branch),
    toRef,
    reviewers: reviewers ?? [],
  }).catch(reviewersOr(action));
}

async function update(bitbucket: BitbucketClient, args: Args) {
  const { project, repo, pr_id, version, title, description, to_branch, reviewers, draft } = args;
  if (pr_id === undefined || version === undefined) {
    throw new Error(
      `Cannot update a pull request from its form: pr_id and version are required`,
    );
  }
  const action = `update pull request #${pr_id}`;
  if (draft) {
    await requireFeature(bitbucket, "draftPullRequests", `make pull request #${pr_id} a draft`);
  }
  const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
  if (pr.version !== version) {
    throw new Error(
      `Cannot ${action}: it changed since the form was drawn (version ${version}, now ${pr.version}), so nothing was sent (hint: reload the form and submit again)`,
    );
  }
  // What the person did not change is sent as read.
  const changes = { title, description, reviewers, toBranch: to_branch, draft };
  const { pr: updated } = await updatePullRequestFields(
    bitbucket,
    prPath(project, repo, pr_id),
    updateOf(pr, version, changes),
    () => false,
  ).catch(reviewersOr(action));
  return updated;
}

export const submitPrForm = defineTool({
  name: "submit_pr_form",
  defaultFor: "view",
  reach: "repository",
  title: "Submit a pull request form",
  description: "The pull request form's own submit, pressed by the person (not for the model).",
  access: safeWrite(
    "opens a pull request, or edits one against the version the form showed, exactly as the person submitted it; it can be declined or edited back",
  ),
  input: SubmitArgs,
  output: z.object({ pullRequest: PullRequestOut }),
  choices: {
    arg: "action",
    needs: { create: ["create_pull_request"], update: ["update_pull_request"] },
  },
  meta: viewToolMeta(["app"]),
  async handler(args, { bitbucket, apps }) {
    if (!apps) {
      throw new Error(
        "Cannot submit a pull request form: only a view submits one, and this client declared no MCP Apps (hint: create_pull_request and update_pull_request write a pull request)",
      );
    }
    const pr = args.action === "create"
      ? await create(bitbucket, args)
      : await update(bitbucket, args);
    return { pullRequest: pullRequestOut(pr) };
  },
});
