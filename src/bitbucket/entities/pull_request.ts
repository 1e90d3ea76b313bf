/**
 * Pull requests, their refs, participants, changes, merge status and settings,
 * as Bitbucket sends them.
 */
import { z } from "../../deps/zod.ts";
import { ApplicationUser } from "./user.ts";

/** The repository a pull request ref lives in, by its names only. */
export const RefRepository = z.object({
  slug: z.string(),
  project: z.object({ key: z.string() }),
});

/** A pull request's source or target (RestPullRequestRef). */
export const PullRequestRef = z.object({
  id: z.string(), // Fully qualified ref, e.g. refs/heads/main
  displayId: z.string(),
  latestCommit: z.string().optional(),
  type: z.string().optional(), // BRANCH or TAG
  repository: RefRepository,
});

/** Someone on a pull request (RestPullRequestParticipant). */
export const Participant = z.object({
  user: ApplicationUser,
  role: z.string().optional(), // AUTHOR, REVIEWER or PARTICIPANT
  approved: z.boolean().optional(),
  status: z.string().optional(), // UNAPPROVED, NEEDS_WORK or APPROVED
  lastReviewedCommit: z.string().optional(),
});

/**
 * A pull request (RestPullRequest). Dates are milliseconds since the epoch.
 * Servers send `author` (a participant) though the 9.4 spec leaves it out.
 */
export const PullRequest = z.object({
  id: z.number().int(),
  version: z.number().int(),
  title: z.string(),
  description: z.string().optional(),
  state: z.string(), // OPEN, MERGED or DECLINED
  open: z.boolean().optional(),
  closed: z.boolean().optional(),
  draft: z.boolean().optional(),
  createdDate: z.number().int(),
  updatedDate: z.number().int().optional(),
  closedDate: z.number().int().optional(),
  fromRef: PullRequestRef,
  toRef: PullRequestRef,
  author: Participant,
  reviewers: z.array(Participant).default([]),
  participants: z.array(Participant).default([]),
  links: z.object({ self: z.array(z.object({ href: z.string() })).optional() }).optional(),
});

/** One merge check's refusal (RestRepositoryHookVeto). */
export const Veto = z.object({
  summaryMessage: z.string(),
  detailedMessage: z.string().optional(),
});

/**
 * Whether a pull request can merge (RestPullRequestMergeability). Servers send
 * `canMerge` though the 9.4 spec leaves it out, so it is read when present.
 */
export const Mergeability = z.object({
  canMerge: z.boolean().optional(),
  conflicted: z.boolean(),
  outcome: z.string(), // CLEAN, CONFLICTED or UNKNOWN
  vetoes: z.array(Veto).default([]),
});

/** Whether a pull request can be rebased (RestPullRequestRebaseability): it can when nothing vetoes it. */
export const Rebaseability = z.object({ vetoes: z.array(Veto).default([]) });

/** What a rebase did to the source branch (RestPullRequestRebaseResult): its ref change. */
export const RebaseResult = z.object({
  refChange: z.object({
    refId: z.string().optional(),
    ref: z.object({ id: z.string() }).optional(),
    fromHash: z.string().optional(),
    toHash: z.string().optional(),
  }).optional(),
});

/** A path in a change (RestPath): its segments. */
export const RestPath = z.object({
  components: z.array(z.string()),
  name: z.string().optional(),
  parent: z.string().optional(),
  extension: z.string().optional(),
});

/** The slash-separated text of a {@link RestPath}. */
export function pathText(path: z.infer<typeof RestPath>): string {
  return path.components.join("/");
}

/** One changed file (RestChange). */
export const Change = z.object({
  path: RestPath,
  srcPath: RestPath.optional(),
  type: z.string(), // ADD, COPY, DELETE, MODIFY, MOVE or UNKNOWN
  nodeType: z.string().optional(), // FILE, DIRECTORY or SUBMODULE
  percentUnchanged: z.number().int().optional(),
});

/** One merge strategy (RestPullRequestMergeStrategy); `enabled` says whether the repository allows it. */
export const MergeStrategy = z.object({
  id: z.string(), // no-ff, ff, ff-only, rebase-no-ff, rebase-ff-only, squash or squash-ff-only
  name: z.string().optional(),
  enabled: z.boolean().optional(),
});

/** A repository's pull request settings (RestRepositoryPullRequestSettings): its merge configuration. */
export const PullRequestSettings = z.object({
  mergeConfig: z.object({
    defaultStrategy: MergeStrategy.optional(),
    strategies: z.array(MergeStrategy).default([]),
  }).optional(),
});
