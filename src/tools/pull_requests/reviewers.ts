/**
 * The reviewers a repository's default-reviewer conditions add to a new pull
 * request from one ref into another: a tool of its own, and what
 * create_pull_request adds unless asked not to.
 */
import { z } from "../../deps/zod.ts";
import { authenticatedUser } from "../../bitbucket/caller.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { Repository } from "../../bitbucket/entities/repository.ts";
import { ApplicationUser } from "../../bitbucket/entities/user.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { defineTool, READ_ONLY, refArg, RepoArgs, UserOut, userOut } from "../kit/mod.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";

/**
 * What the reviewers resource answers: the users themselves (as servers send
 * them), or the conditions holding them (as the 9.4 spec documents it).
 */
const DefaultReviewers = z.array(
  z.union([ApplicationUser, z.object({ reviewers: z.array(ApplicationUser).default([]) })]),
);

/** The default reviewers of a pull request from `fromRef` into `toRef` (both fully qualified), with who asked. */
export async function defaultReviewers(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  refs: { fromRef: string; toRef: string },
): Promise<{ users: z.infer<typeof ApplicationUser>[]; caller: string | undefined }> {
  const action = `find the default reviewers of ${project}/${repo}`;
  // The resource takes repository ids; the repository GET also names the caller.
  const { body: repository, headers } = await bitbucket.request({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}`,
    schema: Repository,
  }).catch(rethrowDuring(action));
  if (repository.id === undefined) {
    throw new Error(`Cannot ${action}: Bitbucket sent the repository without its id`);
  }
  const { body } = await bitbucket.request({
    path: apiPath`/default-reviewers/latest/projects/${project}/repos/${repo}/reviewers`,
    query: {
      sourceRepoId: repository.id,
      targetRepoId: repository.id,
      sourceRefId: refs.fromRef,
      targetRefId: refs.toRef,
    },
    schema: DefaultReviewers,
  }).catch(rethrowDuring(action));
  const users = body.flatMap((entry) => "name" in entry ? [entry] : entry.reviewers);
  const unique = users.filter((u, i) => users.findIndex((v) => v.name === u.name) === i);
  return { users: unique, caller: authenticatedUser(headers) };
}

export const getDefaultReviewers = defineTool({
  name: "get_default_reviewers",
  defaultFor: "change",
  reach: "repository",
  title: "Get default reviewers",
  description: "Default reviewers of a pull request from from_ref into to_ref.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    from_ref: refArg(),
    to_ref: refArg(),
  }),
  output: z.object({ reviewers: z.array(UserOut) }),
  async handler({ project, repo, from_ref, to_ref }, { bitbucket }) {
    const refs = { fromRef: qualifyBranch(from_ref), toRef: qualifyBranch(to_ref) };
    const { users } = await defaultReviewers(bitbucket, project, repo, refs);
    return { reviewers: users.map(userOut) };
  },
});
