import { z } from "zod";
import { Commit } from "../bitbucket/entities/commit.ts";
import { apiPath } from "../bitbucket/path.ts";
import { collectPages } from "../bitbucket/paging.ts";
import { defineTool } from "./define.ts";
import { CommitIdArg, named, PageTail, PagingArgs, RepoArgs } from "./fragments.ts";

const RefArg = (what: string) => z.string().min(1).max(1024).describe(what);

/** Lists commits, newest first, optionally bounded by refs or limited to a path. */
export const listCommits = defineTool({
  name: "list_commits",
  title: "List commits",
  description:
    "Commits newest first: reachable from until (default branch if absent), not from since, optionally touching path.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({
    until: RefArg("Newest commit or ref (inclusive)").optional(),
    since: RefArg("Oldest commit or ref (exclusive)").optional(),
    path: z.string().min(1).max(4096).optional().describe(
      "Only commits touching this file or directory",
    ),
  }).extend(PagingArgs.shape),
  output: z.object({ commits: z.array(Commit) }).extend(PageTail.shape),
  async handler({ project, repo, until, since, path, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      apiPath`/api/latest/projects/${project}/repos/${repo}/commits`,
      Commit,
      { start, limit },
      { until, since, path },
      signal,
    );
    return named("commits", page);
  },
});

/** Reads one commit: message, author, committer, parents. */
export const getCommit = defineTool({
  name: "get_commit",
  title: "Get a commit",
  description: "One commit: message, author, committer, dates and parents.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({ commit_id: CommitIdArg }),
  output: z.object({ commit: Commit }),
  async handler({ project, repo, commit_id }, { bitbucket, signal }) {
    const commit = await bitbucket.get(
      apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commit_id}`,
      Commit,
      undefined,
      signal,
    );
    return { commit };
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
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({
    from: RefArg("Base: branch, tag or commit, e.g. main"),
    to: RefArg("Tip: branch, tag or commit, e.g. feature/x"),
  }).extend(PagingArgs.shape),
  output: z.object({ commits: z.array(Commit) }).extend(PageTail.shape),
  async handler({ project, repo, from, to, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      apiPath`/api/latest/projects/${project}/repos/${repo}/compare/commits`,
      Commit,
      { start, limit },
      { from: to, to: from },
      signal,
    );
    return named("commits", page);
  },
});
