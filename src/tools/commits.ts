import { z } from "zod";
import { Commit } from "../bitbucket/entities/commit.ts";
import { apiPath } from "../bitbucket/path.ts";
import { CommitIdArg, PagingArgs, pathArg, refArg, RepoArgs } from "./args.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { listing } from "./listing.ts";
import { CommitOut, commitOut } from "./shapes/commit.ts";
import { pagedOutput } from "./shapes/page.ts";

/** Lists commits, newest first, optionally bounded by refs or limited to a path. */
export const listCommits = defineTool({
  name: "list_commits",
  title: "List commits",
  description:
    "Commits newest first: reachable from until (default branch if absent), not from since, optionally touching path.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    until: refArg("Newest commit or ref (inclusive)").optional(),
    since: refArg("Oldest commit or ref (exclusive)").optional(),
    path: pathArg("Only commits touching this file or directory").optional(),
  }).extend(PagingArgs.shape),
  output: pagedOutput("commits", CommitOut),
  handler: listing("commits", Commit, commitOut, ({ project, repo, until, since, path }) => ({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits`,
    query: { until, since, path },
  })),
});

/** Reads one commit: message, author, committer, parents. */
export const getCommit = defineTool({
  name: "get_commit",
  title: "Get a commit",
  description: "One commit: message, author, committer, dates and parents.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg }),
  output: z.object({ commit: CommitOut }),
  async handler({ project, repo, commit_id }, { bitbucket, signal }) {
    const { body: commit } = await bitbucket.request({
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commit_id}`,
      schema: Commit,
      signal,
    });
    return { commit: commitOut(commit) };
  },
});

/**
 * The commits on `to` that `from` lacks, like `git log from..to`. Bitbucket's
 * compare endpoint means the reverse by its own names (commits reachable from
 * its `from` and not its `to`), so the arguments are swapped on the way out.
 */
export const compareRefs = defineTool({
  name: "compare_refs",
  title: "Compare refs",
  description:
    "Commits on `to` that `from` lacks, like git log from..to: what a pull request from `to` into `from` would bring.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    from: refArg("Base: branch, tag or commit, e.g. main"),
    to: refArg("Tip: branch, tag or commit, e.g. feature/x"),
  }).extend(PagingArgs.shape),
  output: pagedOutput("commits", CommitOut),
  handler: listing("commits", Commit, commitOut, ({ project, repo, from, to }) => ({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/compare/commits`,
    query: { from: to, to: from },
  })),
});
