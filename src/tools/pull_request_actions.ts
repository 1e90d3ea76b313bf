import { z } from "zod";
import type { BitbucketClient } from "../bitbucket/client.ts";
import { Participant, PullRequest } from "../bitbucket/entities/pull_request.ts";
import { MinimalRef } from "../bitbucket/entities/ref.ts";
import { ApplicationUser } from "../bitbucket/entities/user.ts";
import { apiPath } from "../bitbucket/path.ts";
import { pageOf } from "../bitbucket/paging.ts";
import {
  choiceArg,
  PrArgs,
  refArg,
  RepoArgs,
  ReviewersArg,
  textArg,
  TitleArg,
  VersionArg,
} from "./args.ts";
import { defineTool, safeWrite, unsafeWrite } from "./define.ts";
import { callerName, prPath, qualifyBranch, readPullRequest } from "./pull_request_lookup.ts";
import { PullRequestOut, pullRequestOut } from "./shapes/pull_request.ts";
import { UserOut, userOut } from "./shapes/user.ts";

const DescriptionArg = textArg("Description (Markdown)");
const reviewersBody = (names: string[]) => names.map((name) => ({ user: { name } }));

/** Opens a pull request. */
export const createPullRequest = defineTool({
  name: "create_pull_request",
  title: "Create a pull request",
  description: "Open a pull request from a branch into to_ref, optionally as a draft.",
  access: safeWrite("opens a new pull request; nothing existing changes, and it can be declined"),
  input: RepoArgs.extend({
    from_ref: refArg("Source branch, e.g. feature/x"),
    title: TitleArg,
    to_ref: refArg("Target branch (default: the default branch)").optional(),
    description: DescriptionArg.optional(),
    reviewers: ReviewersArg.optional(),
    draft: z.boolean().optional().describe("Open as a draft"),
  }),
  output: z.object({ pullRequest: PullRequestOut }),
  async handler(args, { bitbucket, signal }) {
    const { project, repo, from_ref, title, to_ref, description, reviewers, draft } = args;
    const target = to_ref === undefined
      ? (await bitbucket.request({
        path: apiPath`/api/latest/projects/${project}/repos/${repo}/default-branch`,
        schema: MinimalRef,
        signal,
      })).body.id
      : qualifyBranch(to_ref);
    const repository = { slug: repo, project: { key: project } };
    const { body: pr } = await bitbucket.request({
      method: "POST",
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
      schema: PullRequest,
      body: {
        title,
        description,
        draft,
        fromRef: { id: qualifyBranch(from_ref), repository },
        toRef: { id: target, repository },
        reviewers: reviewers === undefined ? undefined : reviewersBody(reviewers),
      },
      signal,
    });
    return { pullRequest: pullRequestOut(pr) };
  },
});

/** Changes a pull request's title, description, reviewers, target or draft flag. */
export const updatePullRequest = defineTool({
  name: "update_pull_request",
  title: "Update a pull request",
  description:
    "Change a pull request's title, description, reviewers (the whole list), target branch or draft flag; the rest is kept.",
  access: safeWrite(
    "edits only the fields given, against the version just read; each can be set back",
  ),
  idempotent: true,
  input: PrArgs.extend({
    title: TitleArg.optional(),
    description: DescriptionArg.optional(),
    reviewers: ReviewersArg.optional(),
    to_ref: refArg("New target branch").optional(),
    draft: z.boolean().optional().describe("Draft (true) or ready for review (false)"),
  }),
  output: z.object({ pullRequest: PullRequestOut }),
  async handler(args, { bitbucket, signal }) {
    const { project, repo, pr_id, title, description, reviewers, to_ref, draft } = args;
    if ([title, description, reviewers, to_ref, draft].every((v) => v === undefined)) {
      throw new Error(
        `Cannot update pull request #${pr_id}: nothing to change (hint: give at least one of title, description, reviewers, to_ref or draft)`,
      );
    }
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id, signal);
    // Bitbucket's update replaces the pull request's fields wholesale (an absent
    // reviewers list removes every reviewer), so what is not changing is sent as read.
    const { body: updated } = await bitbucket.request({
      method: "PUT",
      path: prPath(project, repo, pr_id),
      schema: PullRequest,
      body: {
        version: pr.version,
        title: title ?? pr.title,
        description: description ?? pr.description,
        reviewers: reviewersBody(reviewers ?? pr.reviewers.map((r) => r.user.name)),
        toRef: {
          id: to_ref === undefined ? pr.toRef.id : qualifyBranch(to_ref),
          repository: pr.toRef.repository,
        },
        draft: draft ?? pr.draft,
      },
      signal,
    });
    return { pullRequest: pullRequestOut(updated) };
  },
});

const STRATEGIES = [
  "no-ff",
  "ff",
  "ff-only",
  "rebase-no-ff",
  "rebase-ff-only",
  "squash",
  "squash-ff-only",
] as const;

const StrategyArg = choiceArg(
  STRATEGIES,
  "Merge strategy (default: the repository's)",
  (raw) => raw.trim().toLowerCase().replace(/[_\s]+/g, "-"),
);

/** The version to act on: the one given, or the current one. */
async function versionOf(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  given: number | undefined,
  signal: AbortSignal,
): Promise<number> {
  if (given !== undefined) return given;
  return (await readPullRequest(bitbucket, project, repo, id, signal)).pr.version;
}

/** Merges a pull request. */
export const mergePullRequest = defineTool({
  name: "merge_pull_request",
  title: "Merge a pull request",
  description:
    "Merge a pull request now. Refused with the vetoes listed when a merge check fails, or when it changed since version.",
  access: unsafeWrite("merges into the target branch, which Bitbucket cannot undo"),
  input: PrArgs.extend({
    version: VersionArg,
    strategy: StrategyArg.optional(),
    message: textArg("Merge commit message").optional(),
  }),
  output: z.object({ pullRequest: PullRequestOut }),
  async handler({ project, repo, pr_id, version, strategy, message }, { bitbucket, signal }) {
    const current = await versionOf(bitbucket, project, repo, pr_id, version, signal);
    const merged = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/merge"),
      { version: current, strategyId: strategy, message },
      signal,
    );
    return { pullRequest: pullRequestOut(merged) };
  },
});

/** Declines a pull request. */
export const declinePullRequest = defineTool({
  name: "decline_pull_request",
  title: "Decline a pull request",
  description: "Decline (close without merging) a pull request, optionally with a comment.",
  access: unsafeWrite("closes the pull request for every participant and stops its review"),
  input: PrArgs.extend({
    version: VersionArg,
    comment: textArg("Why it is declined").optional(),
  }),
  output: z.object({ pullRequest: PullRequestOut }),
  async handler({ project, repo, pr_id, version, comment }, { bitbucket, signal }) {
    const current = await versionOf(bitbucket, project, repo, pr_id, version, signal);
    const declined = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/decline"),
      { version: current, comment },
      signal,
    );
    return { pullRequest: pullRequestOut(declined) };
  },
});

/**
 * POSTs a merge or decline. The version goes in the body (RestPullRequest*Request)
 * and in the `version` query parameter the spec also documents, so that either
 * one a server reads holds the lock.
 */
async function postVersioned(
  bitbucket: BitbucketClient,
  path: string,
  body: { version: number } & Record<string, unknown>,
  signal: AbortSignal,
): Promise<z.infer<typeof PullRequest>> {
  const reply = await bitbucket.request({
    method: "POST",
    path,
    query: { version: body.version },
    body,
    schema: PullRequest,
    signal,
  });
  return reply.body;
}

const AutoMergeOut = z.object({
  pullRequestId: z.number().int(),
  status: z.enum(["pending", "merged", "cancelled"]).describe(
    "pending: Bitbucket merges once every merge check passes; merged: it could merge at once; cancelled: no auto-merge is pending",
  ),
});

/** Asks Bitbucket to merge a pull request once its merge checks pass. */
export const enableAutoMerge = defineTool({
  name: "enable_auto_merge",
  title: "Enable auto-merge",
  description:
    "Have Bitbucket merge a pull request as soon as every merge check passes (at once if they pass now).",
  access: unsafeWrite("merges into the target branch without another look, possibly at once"),
  idempotent: true,
  input: PrArgs.extend({ strategy: StrategyArg.optional() }),
  output: z.object({ autoMerge: AutoMergeOut }),
  async handler({ project, repo, pr_id, strategy }, { bitbucket, signal }) {
    const current = await versionOf(bitbucket, project, repo, pr_id, undefined, signal);
    const pr = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/merge"),
      { version: current, autoMerge: true, strategyId: strategy },
      signal,
    );
    const status = pr.state === "MERGED" ? "merged" as const : "pending" as const;
    return { autoMerge: { pullRequestId: pr.id, status } };
  },
});

/** Cancels a pending auto-merge. */
export const disableAutoMerge = defineTool({
  name: "disable_auto_merge",
  title: "Disable auto-merge",
  description: "Cancel a pull request's pending auto-merge.",
  access: safeWrite(
    "only stops a pending auto-merge; nothing is merged or lost, and it can be asked for again",
  ),
  idempotent: true,
  input: PrArgs,
  output: z.object({ autoMerge: AutoMergeOut }),
  async handler({ project, repo, pr_id }, { bitbucket, signal }) {
    await bitbucket.request({
      method: "DELETE",
      path: prPath(project, repo, pr_id, "/auto-merge"),
      schema: z.unknown(),
      signal,
    });
    return { autoMerge: { pullRequestId: pr_id, status: "cancelled" as const } };
  },
});

const REVIEW_STATUS = {
  APPROVE: "APPROVED",
  UNAPPROVE: "UNAPPROVED",
  NEEDS_WORK: "NEEDS_WORK",
} as const;

/**
 * The slug of the user named `name`: from the pull request's people when they
 * are among them, else from Bitbucket's user search.
 */
async function slugOf(
  bitbucket: BitbucketClient,
  pr: z.infer<typeof PullRequest>,
  name: string,
  signal: AbortSignal,
): Promise<string> {
  const same = (user: z.infer<typeof ApplicationUser>) =>
    user.name.toLowerCase() === name.toLowerCase() && user.slug !== undefined;
  const people = [pr.author, ...pr.reviewers, ...pr.participants].map((p) => p.user);
  const known = people.find(same);
  if (known?.slug) return known.slug;
  const { body: users } = await bitbucket.request({
    path: "/api/latest/users",
    schema: pageOf(ApplicationUser),
    query: { filter: name, limit: 100 },
    signal,
  });
  const found = users.values.find(same);
  if (found?.slug) return found.slug;
  throw new Error(
    `Cannot review as ${name}: Bitbucket's user search does not find that user's slug (hint: check that the token belongs to an active user)`,
  );
}

/** Approves, unapproves or asks for changes on a pull request as the token's user. */
export const submitPrReview = defineTool({
  name: "submit_pr_review",
  title: "Review a pull request",
  description:
    "Set your review of a pull request: approve, unapprove, or needs_work (request changes). You become a participant.",
  access: unsafeWrite("an approval or needs-work status feeds the merge checks"),
  idempotent: true,
  input: PrArgs.extend({
    action: choiceArg(["APPROVE", "UNAPPROVE", "NEEDS_WORK"] as const, "Review to give"),
  }),
  output: z.object({
    participant: UserOut.extend({
      role: z.string().optional().describe("AUTHOR, REVIEWER or PARTICIPANT"),
      status: z.string().describe("APPROVED, NEEDS_WORK or UNAPPROVED"),
      lastReviewedCommit: z.string().optional(),
    }),
  }),
  async handler({ project, repo, pr_id, action }, { bitbucket, signal }) {
    // The participant resource is keyed by user slug. The pull request GET names
    // the token's user in X-AUSERNAME, and its people usually include them.
    const { pr, headers } = await readPullRequest(bitbucket, project, repo, pr_id, signal);
    const name = callerName(headers, `GET ${prPath(project, repo, pr_id)}`);
    const slug = await slugOf(bitbucket, pr, name, signal);
    const { body: participant } = await bitbucket.request({
      method: "PUT",
      path: prPath(project, repo, pr_id) + apiPath`/participants/${slug}`,
      schema: Participant,
      body: { status: REVIEW_STATUS[action] },
      signal,
    });
    return {
      participant: {
        ...userOut(participant.user),
        role: participant.role,
        status: participant.status ?? REVIEW_STATUS[action],
        lastReviewedCommit: participant.lastReviewedCommit,
      },
    };
  },
});
