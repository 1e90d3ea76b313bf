/**
 * Finding and reading commits: the full id behind an abbreviation or a ref,
 * one commit, and where its changes are listed. The tools and the commit
 * resource read a commit the same way through these.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "./transport/client.ts";
import { Commit } from "./entities/commit.ts";
import { rethrowDuring } from "./transport/errors.ts";
import { apiPath } from "./transport/path.ts";
import { type ListingRequest, pageOf } from "./transport/paging.ts";

/** A full commit id: 40 hex digits (SHA-1) or 64 (SHA-256). */
export const FULL_COMMIT_ID = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/** The REST path of a repository's commits, or of one commit when `id` is given. */
function commitsPath(project: string, repo: string, id?: string): string {
  const base = apiPath`/api/latest/projects/${project}/repos/${repo}/commits`;
  return id === undefined ? base : base + apiPath`/${id}`;
}

/**
 * The full id of the commit `at` names (the default branch's head when absent):
 * a full commit id as it is, anything else from the newest commit of
 * `commits?until=<at>&limit=1`. A file read at that commit (rather than at the
 * moving ref) is exactly the content a later commit is based on, and its id is
 * what `commit_file` passes as `sourceCommitId`. `action` names what the
 * caller was doing, for a failure's message.
 */
export async function commitAt(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  at: string | undefined,
  action: string,
): Promise<string> {
  if (at !== undefined && FULL_COMMIT_ID.test(at)) return at;
  const { body: page } = await bitbucket.request({
    path: commitsPath(project, repo),
    schema: pageOf(Commit),
    query: { until: at, limit: 1 },
  }).catch(rethrowDuring(action));
  const head = page.values[0];
  if (head === undefined) {
    throw new Error(
      `Cannot ${action}: ${
        at === undefined ? "the default branch" : JSON.stringify(at)
      } has no commits (hint: the repository is empty; commit_file with a new branch adds the first file)`,
    );
  }
  return head.id;
}

/** Just the id of a commit: what expanding an abbreviated id needs. */
const CommitIdOnly = Commit.pick({ id: true });

/**
 * The full id of a commit in a repository. Code Insights and the commit diff
 * need full ids, and a status stored against an abbreviation would not be
 * found by id, so an abbreviated id is looked up first; a full one is used as
 * it is.
 */
export async function fullCommitId(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  commitId: string,
): Promise<string> {
  if (FULL_COMMIT_ID.test(commitId)) return commitId.toLowerCase();
  const { body: commit } = await bitbucket.request({
    path: commitsPath(project, repo, commitId),
    schema: CommitIdOnly,
  });
  return commit.id;
}

/** Reads one commit by full or abbreviated id: get_commit's reading, which the commit resource shares. */
export async function readCommit(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  commitId: string,
): Promise<z.infer<typeof Commit>> {
  const { body } = await bitbucket.request({
    path: commitsPath(project, repo, commitId),
    schema: Commit,
  });
  return body;
}

/** Where one commit's changes are listed: for list_commit_changes and the commit resource. */
export function commitChanges(project: string, repo: string, commitId: string): ListingRequest {
  return {
    path: commitsPath(project, repo, commitId) + "/changes",
    query: { withComments: false },
  };
}
