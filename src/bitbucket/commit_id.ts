/** Finding the full id of a commit, for the resources that take nothing else. */
import type { BitbucketClient } from "./client.ts";
import { Commit } from "./entities/commit.ts";
import { apiPath } from "./path.ts";
import { FULL_COMMIT_ID } from "../tools/kit/args.ts";

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
  signal: AbortSignal,
): Promise<string> {
  if (FULL_COMMIT_ID.test(commitId)) return commitId.toLowerCase();
  const { body: commit } = await bitbucket.request({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commitId}`,
    schema: CommitIdOnly,
    signal,
  });
  return commit.id;
}
