/** Reading pull requests: listing them, one in full, its diff, changes, commits, merge status and timeline. */
import { z } from "../../deps/zod.ts";
import type { Query } from "../../bitbucket/transport/client.ts";
import { Commit } from "../../bitbucket/entities/commit.ts";
import {
  Change,
  Mergeability,
  PullRequest,
  PullRequestSettings,
} from "../../bitbucket/entities/pull_request.ts";
import { Activity } from "../../bitbucket/entities/pull_request_comment.ts";
import { Repository } from "../../bitbucket/entities/repository.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { BitbucketError } from "../../bitbucket/transport/errors.ts";
import { collectPages } from "../../bitbucket/transport/paging.ts";
import {
  ChangeOut,
  changeOut,
  choiceArg,
  CommitOut,
  commitOut,
  defineListTool,
  defineTool,
  DiffArgs,
  diffDocument,
  DiffOut,
  inRepository,
  MergeStatusOut,
  mergeStatusOut,
  pagedResult,
  PrArgs,
  PullRequestOut,
  pullRequestOut,
  PullRequestSummary,
  pullRequestSummary,
  READ_ONLY,
  refArg,
  RepoArgs,
  withHiddenCharacters,
} from "../kit/mod.ts";
import { readCappedDiff } from "../../bitbucket/diff/read.ts";
import {
  dashboardPullRequests,
  prDiffSource,
  prPath,
  readPullRequest,
} from "../../bitbucket/pull_requests.ts";
import { callerName } from "./_caller.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";
import { ActivityOut, activityOut } from "./_activity_shape.ts";

export const listPullRequests = defineListTool({
  name: "list_pull_requests",
  defaultFor: "find",
  reach: "server",
  confine: { item: (pr: z.infer<typeof PullRequest>) => inRepository(pr.toRef.repository) },
  title: "List pull requests",
  description: "Pull requests of a repository, or without project and repo yours everywhere.",
  access: READ_ONLY,
  input: RepoArgs.partial().extend({
    state: choiceArg(["OPEN", "MERGED", "DECLINED", "ALL"] as const, "Default OPEN")
      .optional(),
    role: choiceArg(["AUTHOR", "REVIEWER", "PARTICIPANT"] as const, "Your role")
      .optional(),
    source_branch: refArg().optional(),
    target_branch: refArg().optional(),
  }),
  key: "pullRequests",
  item: PullRequestSummary,
  async handler(args, { bitbucket, inside }) {
    const { project, repo, role, source_branch, target_branch, limit, start } = args;
    const state = args.state ?? "OPEN";
    if ((project === undefined) !== (repo === undefined)) {
      throw new Error(
        "Cannot list pull requests: give both project and repo for one repository's, or neither for your own across Bitbucket",
      );
    }
    if (project === undefined || repo === undefined) {
      if (source_branch !== undefined || target_branch !== undefined) {
        throw new Error(
          "Cannot filter your pull requests across Bitbucket by branch: source_branch and target_branch need project and repo",
        );
      }
      const page = await dashboardPullRequests(
        bitbucket,
        { state: state === "ALL" ? undefined : state, role },
        { start, limit },
      );
      return pagedResult(
        "pullRequests",
        { ...page, values: inside(page.values) },
        pullRequestSummary,
      );
    }
    const query: Query = { state };
    if (role !== undefined) {
      // The participant filter needs the caller's username: the repository GET
      // (which also proves it exists) names it in its X-AUSERNAME header.
      const path = apiPath`/api/latest/projects/${project}/repos/${repo}`;
      const { headers } = await bitbucket.request({ path, schema: Repository });
      query["username.1"] = callerName(headers, `GET ${path}`);
      query["role.1"] = role;
    }
    // `at` matches the source ref of OUTGOING pull requests and the target ref of
    // INCOMING ones; with both branches given, the target is checked here.
    const at = source_branch ?? target_branch;
    if (at !== undefined) {
      query.at = qualifyBranch(at);
      query.direction = source_branch === undefined ? "INCOMING" : "OUTGOING";
    }
    const page = await collectPages(
      bitbucket,
      apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
      PullRequest,
      { start, limit },
      query,
    );
    const into = source_branch !== undefined && target_branch !== undefined
      ? qualifyBranch(target_branch)
      : undefined;
    const values = inside(page.values).filter((pr) => into === undefined || pr.toRef.id === into);
    return pagedResult("pullRequests", { ...page, values }, pullRequestSummary);
  },
});

export const getPullRequest = defineTool({
  name: "get_pull_request",
  defaultFor: "find",
  reach: "repository",
  title: "Get a pull request",
  description: "One pull request: description, state, version, reviewers, refs.",
  access: READ_ONLY,
  input: PrArgs,
  output: z.object({ pullRequest: PullRequestOut }),
  async handler({ project, repo, pr_id }, { bitbucket }) {
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
    return { pullRequest: pullRequestOut(pr) };
  },
});

export const getPrDiff = defineTool({
  name: "get_pr_diff",
  defaultFor: "diff",
  reach: "repository",
  title: "Get a pull request diff",
  description: "Diff of a pull request or one of its files, cut at max_bytes.",
  access: READ_ONLY,
  input: PrArgs.extend(DiffArgs.shape),
  output: DiffOut,
  document: (out) => diffDocument(out, "the pull request changes nothing"),
  async handler({ project, repo, pr_id, path, context_lines, max_bytes }, { bitbucket }) {
    const source = prDiffSource(bitbucket, project, repo, pr_id, context_lines);
    return withHiddenCharacters(await readCappedDiff(source, path, max_bytes));
  },
});

export const listPrChanges = defineListTool({
  name: "list_pr_changes",
  defaultFor: "diff",
  reach: "repository",
  title: "List pull request changes",
  description: "Files a pull request changes.",
  access: READ_ONLY,
  input: PrArgs,
  key: "changes",
  item: ChangeOut,
  entity: Change,
  map: changeOut,
  request: ({ project, repo, pr_id }) => ({ path: prPath(project, repo, pr_id, "/changes") }),
});

export const listPrCommits = defineListTool({
  name: "list_pr_commits",
  defaultFor: "diff",
  reach: "repository",
  title: "List pull request commits",
  description: "Commits a pull request brings, newest first.",
  access: READ_ONLY,
  input: PrArgs,
  key: "commits",
  item: CommitOut,
  entity: Commit,
  map: commitOut,
  request: ({ project, repo, pr_id }) => ({ path: prPath(project, repo, pr_id, "/commits") }),
});

export const getPrMergeStatus = defineTool({
  name: "get_pr_merge_status",
  defaultFor: "checks",
  reach: "repository",
  title: "Get pull request merge status",
  description:
    "Whether a pull request can merge now: conflicts, vetoing merge checks, allowed strategies.",
  access: READ_ONLY,
  input: PrArgs,
  output: z.object({ mergeStatus: MergeStatusOut }),
  async handler({ project, repo, pr_id }, { bitbucket }) {
    const merge = await bitbucket.request({
      path: prPath(project, repo, pr_id, "/merge"),
      schema: Mergeability,
    }).then((reply) => reply.body, cannotMergeOn409);
    const { body: settings } = await bitbucket.request({
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/settings/pull-requests`,
      schema: PullRequestSettings,
    });
    return { mergeStatus: mergeStatusOut(merge, settings) };
  },
});

/**
 * A can-merge check refused with 409 (a pull request that is not open, on
 * real servers: Jenkins' JENKINS-65718) as the answer it is: it cannot merge,
 * for Bitbucket's reason.
 */
function cannotMergeOn409(error: unknown): z.infer<typeof Mergeability> {
  if (!(error instanceof BitbucketError) || error.kind !== "conflict") throw error;
  const reasons = error.details.map((d) => d.message).filter((m) => typeof m === "string");
  return {
    canMerge: false,
    conflicted: false,
    outcome: "UNKNOWN",
    vetoes: (reasons.length > 0 ? reasons : ["Bitbucket refused the merge check (409)"]).map(
      (summaryMessage) => ({ summaryMessage }),
    ),
  };
}

export const listPrActivity = defineListTool({
  name: "list_pr_activity",
  reach: "repository",
  title: "List pull request activity",
  description: "A pull request's timeline, newest first.",
  access: READ_ONLY,
  input: PrArgs,
  key: "activities",
  item: ActivityOut,
  entity: Activity,
  map: activityOut,
  request: ({ project, repo, pr_id }) => ({ path: prPath(project, repo, pr_id, "/activities") }),
});
