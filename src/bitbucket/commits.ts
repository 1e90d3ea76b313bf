/**
 * The commit a ref names at the moment it is read. A file read at that commit
 * (rather than at the moving ref) is exactly the content a later commit is
 * based on, and its id is what `commit_file` passes as `sourceCommitId`.
 */
import { Commit } from "./entities/commit.ts";
import { rethrowDuring } from "./errors.ts";
import { apiPath } from "./path.ts";
import { pageOf } from "./paging.ts";
import { FULL_COMMIT_ID } from "../tools/kit/args.ts";
import type { ToolContext } from "../tools/kit/define.ts";

/**
 * The full id of the commit `at` names (the default branch's head when absent):
 * a full commit id as it is, anything else from the newest commit of
 * `commits?until=<at>&limit=1`. `action` names what the caller was doing, for
 * a failure's message.
 */
export async function commitAt(
  { bitbucket, signal }: ToolContext,
  project: string,
  repo: string,
  at: string | undefined,
  action: string,
): Promise<string> {
  if (at !== undefined && FULL_COMMIT_ID.test(at)) return at;
  const { body: page } = await bitbucket.request({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits`,
    schema: pageOf(Commit),
    query: { until: at, limit: 1 },
    signal,
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
