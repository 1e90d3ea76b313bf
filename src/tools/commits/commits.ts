/** A repository's history: commits, one commit and its diff and changes, and comparisons of refs. */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient, Query } from "../../bitbucket/transport/client.ts";
import { Commit } from "../../bitbucket/entities/commit.ts";
import { JsonDiff } from "../../bitbucket/entities/diff.ts";
import { Change, PullRequest } from "../../bitbucket/entities/pull_request.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import {
  ChangeOut,
  changeOut,
  CommitIdArg,
  CommitOut,
  commitOut,
  defineListTool,
  defineTool,
  DiffArgs,
  diffDocument,
  DiffOut,
  pathArg,
  PullRequestSummary,
  pullRequestSummary,
  READ_ONLY,
  refArg,
  RepoArgs,
  withHiddenCharacters,
} from "../kit/mod.ts";
import { changedPaths, readCappedDiff } from "../../bitbucket/diff/read.ts";
import { commitChanges, fullCommitId, readCommit } from "../../bitbucket/commits.ts";
import { unifiedText } from "../../bitbucket/diff/from_json.ts";

export const listCommits = defineListTool({
  name: "list_commits",
  reach: "repository",
  title: "List commits",
  description:
    "Commits newest first, from until (default branch) back to, not including, since; optionally touching path.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    until: refArg().optional(),
    since: refArg().optional(),
    path: pathArg("File or directory").optional(),
  }),
  key: "commits",
  item: CommitOut,
  entity: Commit,
  map: commitOut,
  request: ({ project, repo, until, since, path }) => ({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits`,
    query: { until, since, path },
  }),
});

export const getCommit = defineTool({
  name: "get_commit",
  defaultFor: "diff",
  reach: "repository",
  title: "Get a commit",
  description: "One commit: message, author, dates, parents.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg }),
  output: z.object({ commit: CommitOut }),
  async handler({ project, repo, commit_id }, { bitbucket }) {
    return { commit: commitOut(await readCommit(bitbucket, project, repo, commit_id)) };
  },
});

/** The two refs of a comparison. */
const CompareArgs = RepoArgs.extend({
  from: refArg("Base"),
  to: refArg("Tip"),
});

/**
 * The commits on `to` that `from` lacks, like `git log from..to`. Bitbucket's
 * compare endpoint means the reverse by its own names (commits reachable from
 * its `from` and not its `to`), so the arguments are swapped on the way out.
 */
export const compareRefs = defineListTool({
  name: "compare_refs",
  reach: "repository",
  title: "Compare refs",
  description: "Commits on to that from lacks, like git log from..to.",
  access: READ_ONLY,
  input: CompareArgs,
  key: "commits",
  item: CommitOut,
  entity: Commit,
  map: commitOut,
  request: ({ project, repo, from, to }) => ({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/compare/commits`,
    query: { from: to, to: from },
  }),
});

/** Reads a JSON diff resource whole and gives it as unified text, for {@link readCappedDiff}. */
function jsonDiff(bitbucket: BitbucketClient, path: string, query: Query) {
  return async () => {
    const { body } = await bitbucket.request({ path, query, schema: JsonDiff });
    const { text, complete } = unifiedText(body);
    return { bytes: new TextEncoder().encode(text), complete };
  };
}

/** What one commit changed, against its first parent. */
export const getCommitDiff = defineTool({
  name: "get_commit_diff",
  reach: "repository",
  title: "Get a commit diff",
  description: "Diff of a commit or one of its files, cut at max_bytes.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg }).extend(DiffArgs.shape),
  output: DiffOut,
  document: (out) => diffDocument(out, "the commit changes nothing"),
  async handler(args, { bitbucket }) {
    const { project, repo, path, context_lines, max_bytes } = args;
    const id = await fullCommitId(bitbucket, project, repo, args.commit_id);
    const commit = apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${id}`;
    const query = { contextLines: context_lines, withComments: false };
    const diff = await readCappedDiff(
      {
        read: jsonDiff(bitbucket, `${commit}/diff`, query),
        changedPaths: () => changedPaths(bitbucket, `${commit}/changes`, { withComments: false }),
        what: `commit ${id.slice(0, 11)} of ${project}/${repo}`,
        subject: "the commit",
        hint: "list_commit_changes lists the changed paths",
      },
      path,
      max_bytes,
    );
    return withHiddenCharacters(diff);
  },
});

export const listCommitChanges = defineListTool({
  name: "list_commit_changes",
  reach: "repository",
  title: "List commit changes",
  description: "Files one commit changes.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg }),
  key: "changes",
  item: ChangeOut,
  entity: Change,
  map: changeOut,
  request: ({ project, repo, commit_id }) => commitChanges(project, repo, commit_id),
});

/**
 * The diff of what `to` brings that `from` lacks: the changes of
 * compare_refs' commits, as a pull request from `to` into `from` would show
 * them. Bitbucket's compare resource swaps the names, as for compare_refs.
 */
export const getCompareDiff = defineTool({
  name: "get_compare_diff",
  reach: "repository",
  title: "Get a comparison diff",
  description: "Diff of what to brings that from lacks, cut at max_bytes.",
  access: READ_ONLY,
  input: CompareArgs.extend(DiffArgs.shape),
  output: DiffOut,
  document: (out) => diffDocument(out, "`to` brings nothing `from` lacks"),
  async handler({ project, repo, from, to, path, context_lines, max_bytes }, { bitbucket }) {
    const base = apiPath`/api/latest/projects/${project}/repos/${repo}/compare`;
    const refs = { from: to, to: from };
    const diff = await readCappedDiff(
      {
        read: jsonDiff(bitbucket, `${base}/diff`, { ...refs, contextLines: context_lines }),
        changedPaths: () => changedPaths(bitbucket, `${base}/changes`, refs),
        what: `${from}...${to} of ${project}/${repo}`,
        subject: "the comparison",
        hint: "without path, a cut diff names the files it leaves out",
      },
      path,
      max_bytes,
    );
    return withHiddenCharacters(diff);
  },
});

export const listCommitPullRequests = defineListTool({
  name: "list_commit_pull_requests",
  reach: "repository",
  title: "List a commit's pull requests",
  description: "Pull requests that contain a commit.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg }),
  key: "pullRequests",
  item: PullRequestSummary,
  entity: PullRequest,
  map: pullRequestSummary,
  request: ({ project, repo, commit_id }) => ({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commit_id}/pull-requests`,
  }),
});
