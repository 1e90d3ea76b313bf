/**
 * The default reviewers a form shows for the branches chosen, and how many of
 * them must approve: the users the repository's default-reviewer conditions
 * add (Bitbucket works out which conditions apply), and the conditions read
 * beside them for their required approvals, matched to the branches here as
 * far as the refs alone tell (any branch, a branch, a pattern; a branching
 * model category or branch counts when all its reviewers were added).
 */
import { z } from "../../deps/zod.ts";
import { authenticatedUser } from "../../bitbucket/caller.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { ApplicationUser } from "../../bitbucket/entities/user.ts";
import { Repository } from "../../bitbucket/entities/repository.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";
import { userOut } from "../kit/shapes/user.ts";

/** What the reviewers resource answers: users, or (as the 9.4 spec documents it) conditions holding them. */
const Reviewers = z.array(
  z.union([ApplicationUser, z.object({ reviewers: z.array(ApplicationUser).default([]) })]),
);

/** A condition's ref matcher (RestRefMatcher): `id` a ref, a pattern or a model name, by `type.id`. */
const RefMatcher = z.object({
  id: z.string(),
  displayId: z.string().optional(),
  type: z.object({ id: z.string() }).optional(),
});

/** A default-reviewer condition (RestPullRequestCondition). */
const Condition = z.object({
  sourceRefMatcher: RefMatcher.optional(),
  targetRefMatcher: RefMatcher.optional(),
  reviewers: z.array(ApplicationUser).default([]),
  requiredApprovals: z.number().int().default(0),
});

/** A glob of Bitbucket's branch patterns (`*` any run, `?` one character) as a whole-name match. */
function globMatches(pattern: string, name: string): boolean {
  const source = pattern.split("").map((c) =>
    c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")
  ).join("");
  return new RegExp(`^${source}$`).test(name);
}

/** Whether `matcher` matches branch `name`; undefined when the refs alone cannot tell (a branching model). */
export function matches(matcher: z.infer<typeof RefMatcher> | undefined, name: string) {
  const type = matcher?.type?.id;
  if (matcher === undefined || type === "ANY_REF") return true;
  if (type === "BRANCH") return matcher.id === qualifyBranch(name) || matcher.displayId === name;
  if (type === "PATTERN") {
    return globMatches(matcher.id, name) || globMatches(matcher.id, qualifyBranch(name));
  }
  return undefined;
}

/** The default reviewers of a pull request from `from` into `to`, without the caller, and the conditions that apply. */
export async function defaultsFor(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  from: string,
  to: string,
) {
  const repoPath = apiPath`/api/latest/projects/${project}/repos/${repo}`;
  // The resource takes repository ids; the repository GET also names the caller.
  const { body: repository, headers } = await bitbucket.request({
    path: repoPath,
    schema: Repository,
  });
  if (repository.id === undefined) {
    throw new Error(
      `Cannot find the default reviewers of ${project}/${repo}: Bitbucket sent the repository without its id`,
    );
  }
  const base = apiPath`/default-reviewers/latest/projects/${project}/repos/${repo}`;
  const { body } = await bitbucket.request({
    path: `${base}/reviewers`,
    query: {
      sourceRepoId: repository.id,
      targetRepoId: repository.id,
      sourceRefId: qualifyBranch(from),
      targetRefId: qualifyBranch(to),
    },
    schema: Reviewers,
  });
  // The author cannot review their own pull request.
  const caller = authenticatedUser(headers)?.toLowerCase();
  const all = body.flatMap((entry) => "name" in entry ? [entry] : entry.reviewers);
  const users = all.filter((u, i) =>
    u.name.toLowerCase() !== caller && all.findIndex((v) => v.name === u.name) === i
  );
  const added = new Set(all.map((u) => u.name));
  // Reading the conditions may need more than read access: without them, no approvals are shown.
  const conditions = await bitbucket.request({
    path: `${base}/conditions`,
    schema: z.array(Condition),
  }).then(({ body }) => body, () => undefined);
  const applying = conditions?.filter((c) => {
    const source = matches(c.sourceRefMatcher, from);
    const target = matches(c.targetRefMatcher, to);
    if (source === false || target === false) return false;
    if (source && target) return true;
    return c.reviewers.length > 0 && c.reviewers.every((u) => added.has(u.name));
  });
  return {
    reviewers: users.map(userOut),
    conditions: applying?.map((c) => ({
      reviewers: c.reviewers.map((u) => u.name),
      requiredApprovals: c.requiredApprovals,
    })),
  };
}
