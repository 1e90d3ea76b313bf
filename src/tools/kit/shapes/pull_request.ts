/** Pull requests, their changes and their merge status as tools return them. */
import { z } from "../../../deps/zod.ts";
import {
  type Change,
  type Mergeability,
  type Participant,
  pathText,
  type PullRequest,
  type PullRequestRef,
  type PullRequestSettings,
} from "../../../bitbucket/entities/pull_request.ts";
import { cleanText } from "../../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";
import { DateOut, isoDate } from "./date.ts";
import { UserOut, userOut } from "./user.ts";

const ReviewerOut = UserOut.extend({
  status: z.string().describe("APPROVED, NEEDS_WORK or UNAPPROVED"),
});

const PrRefOut = z.object({
  id: z.string().describe("Fully qualified ref"),
  displayId: z.string(),
  latestCommit: z.string().optional(),
  repository: z.string().describe("PROJECT/repo"),
});

/** A pull request. */
export const PullRequestOut = z.object({
  id: z.number().int(),
  version: z.number().int().describe("Pass to writes that take a version"),
  title: z.string(),
  description: z.string().optional(),
  state: z.string().describe("OPEN, MERGED or DECLINED"),
  draft: z.boolean(),
  author: UserOut,
  reviewers: z.array(ReviewerOut),
  fromRef: PrRefOut,
  toRef: PrRefOut,
  createdDate: DateOut,
  updatedDate: DateOut.optional(),
  closedDate: DateOut.optional(),
  link: z.string().optional().describe("Web page of the pull request"),
});

/** A pull request in a listing: everything but the description. */
export const PullRequestSummary = PullRequestOut.omit({ description: true });

/** A participant's review status, derived from `approved` on servers that omit it. */
export function reviewStatus(p: z.infer<typeof Participant>): string {
  return p.status ?? (p.approved ? "APPROVED" : "UNAPPROVED");
}

function prRefOut(ref: z.infer<typeof PullRequestRef>): z.infer<typeof PrRefOut> {
  return {
    id: visibleId(ref.id),
    displayId: visibleId(ref.displayId),
    latestCommit: ref.latestCommit,
    repository: visibleId(`${ref.repository.project.key}/${ref.repository.slug}`),
  };
}

/** Trims a Bitbucket pull request to {@link PullRequestOut}. */
export function pullRequestOut(pr: z.infer<typeof PullRequest>): z.infer<typeof PullRequestOut> {
  return {
    id: pr.id,
    version: pr.version,
    title: cleanText(pr.title),
    description: cleanText(pr.description),
    state: pr.state,
    draft: pr.draft ?? false,
    author: userOut(pr.author.user),
    reviewers: pr.reviewers.map((r) => ({ ...userOut(r.user), status: reviewStatus(r) })),
    fromRef: prRefOut(pr.fromRef),
    toRef: prRefOut(pr.toRef),
    createdDate: isoDate(pr.createdDate),
    updatedDate: isoDate(pr.updatedDate),
    closedDate: isoDate(pr.closedDate),
    link: visibleId(pr.links?.self?.[0]?.href),
  };
}

/** Trims a Bitbucket pull request to {@link PullRequestSummary}. */
export function pullRequestSummary(
  pr: z.infer<typeof PullRequest>,
): z.infer<typeof PullRequestSummary> {
  const { description: _, ...summary } = pullRequestOut(pr);
  return summary;
}

/** One changed file. */
export const ChangeOut = z.object({
  path: z.string(),
  type: z.string().describe("ADD, COPY, DELETE, MODIFY, MOVE or UNKNOWN"),
  srcPath: z.string().optional().describe("Where a moved or copied file came from"),
  nodeType: z.string().optional().describe("FILE, DIRECTORY or SUBMODULE"),
});

/** Flattens a Bitbucket change to {@link ChangeOut}: paths as text, made visible. */
export function changeOut(change: z.infer<typeof Change>): z.infer<typeof ChangeOut> {
  return {
    path: visibleId(pathText(change.path)),
    type: change.type,
    srcPath: change.srcPath === undefined ? undefined : visibleId(pathText(change.srcPath)),
    nodeType: change.nodeType,
  };
}

/** Whether a pull request can merge now, what stops it, and how it may be merged. */
export const MergeStatusOut = z.object({
  canMerge: z.boolean().optional(),
  conflicted: z.boolean(),
  outcome: z.string().describe("CLEAN, CONFLICTED or UNKNOWN"),
  vetoes: z.array(z.object({
    summaryMessage: z.string(),
    detailedMessage: z.string().optional(),
  })).describe("The merge checks that refuse it"),
  strategies: z.array(z.string()).describe("Merge strategies the repository allows"),
  defaultStrategy: z.string().optional().describe("The one used when none is given"),
});

/**
 * Trims Bitbucket's mergeability to {@link MergeStatusOut}, with the
 * strategies the repository's settings enable (all listed ones when a server
 * does not say which are enabled).
 */
export function mergeStatusOut(
  merge: z.infer<typeof Mergeability>,
  settings: z.infer<typeof PullRequestSettings>,
): z.infer<typeof MergeStatusOut> {
  const config = settings.mergeConfig;
  return {
    canMerge: merge.canMerge,
    conflicted: merge.conflicted,
    outcome: merge.outcome,
    vetoes: merge.vetoes.map((v) => ({
      summaryMessage: cleanText(v.summaryMessage),
      detailedMessage: cleanText(v.detailedMessage),
    })),
    strategies: (config?.strategies ?? []).filter((s) => s.enabled !== false)
      .map((s) => visibleId(s.id)),
    defaultStrategy: visibleId(config?.defaultStrategy?.id),
  };
}
