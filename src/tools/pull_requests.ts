import { z } from "zod";
import type { BitbucketClient, Query } from "../bitbucket/client.ts";
import { Commit } from "../bitbucket/entities/commit.ts";
import { Change, Mergeability, pathText, PullRequest } from "../bitbucket/entities/pull_request.ts";
import { Repository } from "../bitbucket/entities/repository.ts";
import { apiPath } from "../bitbucket/path.ts";
import { collectPages, MAX_LIMIT } from "../bitbucket/paging.ts";
import {
  choiceArg,
  DEFAULT_DOCUMENT_BYTES,
  maxBytesArg,
  PagingArgs,
  pathArg,
  PrArgs,
  refArg,
  RepoArgs,
} from "./args.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { listing } from "./listing.ts";
import { callerName, prPath, qualifyBranch, readPullRequest } from "./pull_request_lookup.ts";
import { CommitOut, commitOut } from "./shapes/commit.ts";
import { diffDocument, DiffOut } from "./shapes/diff.ts";
import { pagedOutput, pagedResult } from "./shapes/page.ts";
import {
  ChangeOut,
  changeOut,
  MergeStatusOut,
  mergeStatusOut,
  PullRequestOut,
  pullRequestOut,
  PullRequestSummary,
  pullRequestSummary,
} from "./shapes/pull_request.ts";
import { cutDiff, fileDiff, LOOKAHEAD_BYTES, PATH_SCAN_BYTES } from "./unified_diff.ts";

/**
 * Lists one repository's pull requests, or (with neither project nor repo) the
 * caller's own across Bitbucket from the dashboard.
 */
export const listPullRequests = defineTool({
  name: "list_pull_requests",
  title: "List pull requests",
  description:
    "Pull requests of a repository, or (without project and repo) your own across Bitbucket. Newest first.",
  access: READ_ONLY,
  input: RepoArgs.partial().extend({
    state: choiceArg(["OPEN", "MERGED", "DECLINED", "ALL"] as const, "State (default OPEN)")
      .optional(),
    role: choiceArg(["AUTHOR", "REVIEWER", "PARTICIPANT"] as const, "Only those where you are")
      .optional(),
    source_branch: refArg("Only from this branch (needs project and repo)").optional(),
    target_branch: refArg("Only into this branch (needs project and repo)").optional(),
  }).extend(PagingArgs.shape),
  output: pagedOutput("pullRequests", PullRequestSummary),
  async handler(args, { bitbucket, signal }) {
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
      const page = await collectPages(
        bitbucket,
        "/api/latest/dashboard/pull-requests",
        PullRequest,
        { start, limit },
        { state: state === "ALL" ? undefined : state, role },
        signal,
      );
      return pagedResult("pullRequests", page, pullRequestSummary);
    }
    const query: Query = { state };
    if (role !== undefined) {
      // The participant filter needs the caller's username: the repository GET
      // (which also proves it exists) names it in its X-AUSERNAME header.
      const path = apiPath`/api/latest/projects/${project}/repos/${repo}`;
      const { headers } = await bitbucket.request({ path, schema: Repository, signal });
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
      signal,
    );
    const into = source_branch !== undefined && target_branch !== undefined
      ? qualifyBranch(target_branch)
      : undefined;
    const values = page.values.filter((pr) => into === undefined || pr.toRef.id === into);
    return pagedResult("pullRequests", { ...page, values }, pullRequestSummary);
  },
});

/** Reads one pull request. */
export const getPullRequest = defineTool({
  name: "get_pull_request",
  title: "Get a pull request",
  description:
    "One pull request: title, description, state, version, author, reviewers with their status, refs and dates.",
  access: READ_ONLY,
  input: PrArgs,
  output: z.object({ pullRequest: PullRequestOut }),
  async handler({ project, repo, pr_id }, { bitbucket, signal }) {
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id, signal);
    return { pullRequest: pullRequestOut(pr) };
  },
});

/** Returns a pull request's unified diff, whole or for one file, cut at a byte limit. */
export const getPrDiff = defineTool({
  name: "get_pr_diff",
  title: "Get a pull request diff",
  description:
    `Unified diff of a pull request, or of one file with path. Cut at max_bytes (default ${DEFAULT_DOCUMENT_BYTES}) with truncated and the files left out.`,
  access: READ_ONLY,
  input: PrArgs.extend({
    path: pathArg("Only this file (new or old path), e.g. src/app.ts").optional(),
    context_lines: z.number().int().min(0).max(100).optional().describe(
      "Context lines around each change (Bitbucket's default if absent)",
    ),
    max_bytes: maxBytesArg(256),
  }),
  output: DiffOut,
  document: (out) => diffDocument(out, "the pull request changes nothing"),
  async handler({ project, repo, pr_id, path, context_lines, max_bytes }, { bitbucket, signal }) {
    const read = await bitbucket.getBytes({
      path: prPath(project, repo, pr_id, ".diff"),
      maxBytes: path === undefined ? max_bytes + LOOKAHEAD_BYTES : PATH_SCAN_BYTES,
      query: { contextLines: context_lines },
      signal,
    });
    if (path !== undefined) {
      const one = fileDiff(read.bytes, read.complete, path, max_bytes);
      if (one) return one;
      throw new Error(
        `Cannot show ${JSON.stringify(path)} in pull request #${pr_id} of ${project}/${repo}: ${
          read.complete
            ? "the pull request does not change it"
            : `it is not in the first ${PATH_SCAN_BYTES} bytes of the diff`
        } (hint: list_pr_changes lists the changed paths)`,
      );
    }
    const cut = cutDiff(read.bytes, read.complete, max_bytes);
    if (!cut.truncated) return cut;
    const changed = await changedFiles(bitbucket, project, repo, pr_id, signal);
    return {
      diff: cut.diff,
      truncated: true,
      omittedFiles: changed.filter((file) => !cut.wholeFiles.has(file)),
    };
  },
});

/** Every path a pull request changes, in Bitbucket's order. */
async function changedFiles(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  signal: AbortSignal,
): Promise<string[]> {
  const page = await collectPages(
    bitbucket,
    prPath(project, repo, id, "/changes"),
    Change,
    { limit: MAX_LIMIT },
    {},
    signal,
  );
  return page.values.map((c) => pathText(c.path));
}

/** Lists the files a pull request changes. */
export const listPrChanges = defineTool({
  name: "list_pr_changes",
  title: "List pull request changes",
  description: "Files a pull request changes: path, change type, and source path of moves/copies.",
  access: READ_ONLY,
  input: PrArgs.extend(PagingArgs.shape),
  output: pagedOutput("changes", ChangeOut),
  handler: listing("changes", Change, changeOut, ({ project, repo, pr_id }) => ({
    path: prPath(project, repo, pr_id, "/changes"),
  })),
});

/** Lists the commits a pull request brings. */
export const listPrCommits = defineTool({
  name: "list_pr_commits",
  title: "List pull request commits",
  description: "Commits a pull request brings, newest first.",
  access: READ_ONLY,
  input: PrArgs.extend(PagingArgs.shape),
  output: pagedOutput("commits", CommitOut),
  handler: listing("commits", Commit, commitOut, ({ project, repo, pr_id }) => ({
    path: prPath(project, repo, pr_id, "/commits"),
  })),
});

/** Says whether a pull request can merge now, and what stops it. */
export const getPrMergeStatus = defineTool({
  name: "get_pr_merge_status",
  title: "Get pull request merge status",
  description:
    "Whether an open pull request can merge now: conflicts, and each merge check that vetoes it.",
  access: READ_ONLY,
  input: PrArgs,
  output: z.object({ mergeStatus: MergeStatusOut }),
  async handler({ project, repo, pr_id }, { bitbucket, signal }) {
    const { body } = await bitbucket.request({
      path: prPath(project, repo, pr_id, "/merge"),
      schema: Mergeability,
      signal,
    });
    return { mergeStatus: mergeStatusOut(body) };
  },
});
