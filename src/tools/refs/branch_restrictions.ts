/** A repository's branch permissions, and which of them can apply to a branch. */
import { z } from "../../deps/zod.ts";
import { RefRestriction } from "../../bitbucket/entities/restriction.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { collectPages, MAX_LIMIT } from "../../bitbucket/transport/paging.ts";
import {
  defineTool,
  pagedOutput,
  READ_ONLY,
  refArg,
  RefMatcherOut,
  refMatcherOut,
  RepoArgs,
} from "../kit/mod.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";
import { refPatternMatches } from "./_ref_pattern.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** What a 401 or 403 means here: Bitbucket shows branch permissions to repository admins only. */
const ADMIN_HINT =
  "Bitbucket shows branch permissions only to repository admins (REPO_ADMIN) and refuses anyone else with this status; if the token works for other tools, ask a repository admin, or read the message of the rejected push or merge, which names the restriction";

/**
 * The most branch permissions read, ten pages: the branch filter is applied
 * here, so all of them are read; past this the result says it is partial.
 */
export const MAX_RESTRICTIONS = 10 * MAX_LIMIT;

/** A branch permission. */
const RestrictionOut = z.object({
  id: z.number().int(),
  type: z.string().describe("read-only, no-deletes, fast-forward-only or pull-request-only"),
  matcher: RefMatcherOut.describe("Refs it applies to"),
  scope: z.string().optional().describe("Where it is set: REPOSITORY, PROJECT or GLOBAL"),
  exemptUsers: z.array(z.string()).describe("Usernames"),
  exemptGroups: z.array(z.string()),
});

/**
 * Whether a restriction can apply to `ref`. A branching-model matcher
 * (MODEL_BRANCH, MODEL_CATEGORY) depends on the repository's branching model,
 * which is not read, so it is kept: it may apply.
 */
function mayApply(matcher: z.infer<typeof RefRestriction>["matcher"], ref: string): boolean {
  switch (matcher.type.id) {
    case "ANY_REF":
      return true;
    case "BRANCH":
      return matcher.id === ref;
    case "PATTERN":
      return refPatternMatches(matcher.id, ref);
    default:
      return true;
  }
}

export const listBranchRestrictions = defineTool({
  name: "list_branch_restrictions",
  reach: "repository",
  title: "List branch permissions",
  description: "Branch permissions, the project's too: type, refs, exempt users and groups.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    branch: refArg("Only those applying to it").optional(),
  }),
  output: pagedOutput("restrictions", RestrictionOut).extend({
    note: z.string().optional().describe("When isLastPage is false: what was left unread"),
  }),
  async handler({ project, repo, branch }, { bitbucket }) {
    const action = `list the branch permissions of ${project}/${repo}`;
    // Few per repository: all of them (up to a bound), so that the branch filter sees every one.
    const page = await collectPages(
      bitbucket,
      apiPath`/branch-permissions/latest/projects/${project}/repos/${repo}/restrictions`,
      RefRestriction,
      { limit: MAX_RESTRICTIONS },
    ).catch(rethrowDuring(action, { unauthorized: ADMIN_HINT, forbidden: ADMIN_HINT }));
    const ref = branch === undefined ? undefined : qualifyBranch(branch);
    return {
      restrictions: page.values
        .filter((r) => ref === undefined || mayApply(r.matcher, ref))
        .map((r) => ({
          id: r.id,
          type: r.type,
          matcher: refMatcherOut(r.matcher),
          scope: r.scope?.type,
          exemptUsers: r.users.map((u) => visibleId(u.name)),
          exemptGroups: r.groups.map((g) => visibleId(g)),
        })),
      isLastPage: page.isLastPage,
      note: page.isLastPage ? undefined : cutNote(branch),
    };
  },
});

/** What a result cut at {@link MAX_RESTRICTIONS} says: what is missing, and where to see the rest. */
function cutNote(branch: string | undefined): string {
  const within = branch === undefined ? "" : ` that apply to ${JSON.stringify(branch)}`;
  return `Only the first ${MAX_RESTRICTIONS} branch permissions were read; more exist, so some${within} may be missing here: see them all in the repository's and project's Branch permissions settings in Bitbucket`;
}
