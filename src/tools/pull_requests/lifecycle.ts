/**
 * A pull request's life: opening it, editing it, merging, declining,
 * reopening, and auto-merge.
 */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { PullRequest } from "../../bitbucket/entities/pull_request.ts";
import { requireFeature } from "../../bitbucket/features.ts";
import {
  choiceArg,
  defineTool,
  PrArgs,
  PullRequestOut,
  pullRequestOut,
  refArg,
  RepoArgs,
  ReviewersArg,
  safeWrite,
  textArg,
  TitleArg,
  unsafeWrite,
  VersionArg,
} from "../kit/mod.ts";
import {
  openPullRequest,
  prPath,
  readPullRequest,
  targetRef,
  updateOf,
  updatePullRequestFields,
} from "../../bitbucket/pull_requests.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";
import { cleanText, quoted } from "../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import { defaultReviewers } from "./reviewers.ts";

const DescriptionArg = textArg("Markdown");

export const createPullRequest = defineTool({
  name: "create_pull_request",
  defaultFor: "change",
  reach: "repository",
  title: "Create a pull request",
  description:
    "Open a pull request; its default reviewers are added unless default_reviewers is false.",
  access: safeWrite("opens a new pull request; nothing existing changes, and it can be declined"),
  input: RepoArgs.extend({
    from_ref: refArg("Source branch"),
    title: TitleArg,
    to_ref: refArg("Default: the default branch").optional(),
    description: DescriptionArg.optional(),
    reviewers: ReviewersArg.optional(),
    default_reviewers: z.boolean().optional(),
    draft: z.boolean().optional(),
  }),
  output: z.object({
    pullRequest: PullRequestOut,
    defaultReviewersAdded: z.array(z.string()).describe("Usernames added as default reviewers"),
  }),
  async handler(args, { bitbucket }) {
    const { project, repo, from_ref, title, to_ref, description, draft } = args;
    // Below 8.18 the draft flag is ignored: the reviewers would be notified of a normal pull request.
    if (draft) await requireFeature(bitbucket, "draftPullRequests", "open a draft pull request");
    const fromRef = qualifyBranch(from_ref);
    const toRef = await targetRef(bitbucket, project, repo, to_ref);
    const given = args.reviewers ?? [];
    let added: string[] = [];
    if (args.default_reviewers !== false) {
      const found = await defaultReviewers(bitbucket, project, repo, { fromRef, toRef });
      // The author cannot review their own pull request; Bitbucket would refuse it.
      const taken = new Set([...given, found.caller ?? ""].map((n) => n.toLowerCase()));
      added = found.users.map((u) => u.name).filter((n) => !taken.has(n.toLowerCase()));
    }
    const reviewers = [...given, ...added];
    const pr = await openPullRequest(bitbucket, project, repo, {
      title,
      description,
      draft,
      fromRef,
      toRef,
      reviewers,
    });
    return {
      pullRequest: pullRequestOut(pr),
      defaultReviewersAdded: added.map((n) => visibleId(n)),
    };
  },
});

export const updatePullRequest = defineTool({
  name: "update_pull_request",
  defaultFor: "change",
  reach: "repository",
  title: "Update a pull request",
  description:
    "Change a pull request's title, description, reviewers (whole list), target or draft flag.",
  access: safeWrite(
    "edits only the fields given, against the version just read; each can be set back (the draft flag too: marking a draft ready merges nothing); removing a reviewer who approved or asked for work changes a merge check, so that asks first",
  ),
  idempotent: true,
  input: PrArgs.extend({
    title: TitleArg.optional(),
    description: DescriptionArg.optional(),
    reviewers: ReviewersArg.optional(),
    to_ref: refArg().optional(),
    draft: z.boolean().optional(),
  }),
  output: z.object({
    pullRequest: PullRequestOut,
    reviewersDropped: z.array(z.string()).optional().describe(
      "Reviewers Bitbucket no longer accepts (not a user, no access), left out",
    ),
  }),
  async confirm({ project, repo, pr_id, reviewers }, { bitbucket }) {
    if (reviewers === undefined) return undefined;
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
    const kept = new Set(reviewers.map((name) => name.toLowerCase()));
    const dropped = pr.reviewers.filter((r) =>
      !kept.has(r.user.name.toLowerCase()) && (r.status ?? "UNAPPROVED") !== "UNAPPROVED"
    );
    if (dropped.length === 0) return undefined;
    const who = dropped.map((r) => `${quoted(r.user.name)} (${cleanText(r.status ?? "")})`)
      .join(", ");
    return {
      message: `Remove ${who} from the reviewers of pull request #${pr_id} ${
        quoted(pr.title)
      } in ${project}/${repo} (version ${pr.version}), dropping their verdict from its merge checks`,
      version: pr.version,
    };
  },
  async handler(args, { bitbucket, confirmed }) {
    const { project, repo, pr_id, title, description, reviewers, to_ref, draft } = args;
    if ([title, description, reviewers, to_ref, draft].every((v) => v === undefined)) {
      throw new Error(
        `Cannot update pull request #${pr_id}: nothing to change (hint: give at least one of title, description, reviewers, to_ref or draft)`,
      );
    }
    if (draft) {
      await requireFeature(bitbucket, "draftPullRequests", `make pull request #${pr_id} a draft`);
    }
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
    const verdicts = new Map(pr.reviewers.map((r) => [r.user.name.toLowerCase(), r.status]));
    const { pr: updated, dropped } = await updatePullRequestFields(
      bitbucket,
      prPath(project, repo, pr_id),
      updateOf(pr, confirmed?.version ?? pr.version, {
        title,
        description,
        reviewers,
        toBranch: to_ref,
        draft,
      }),
      // Reviewers the caller did not name, who gave no verdict, can go without asking.
      (refused) =>
        reviewers === undefined &&
        refused.every((name) =>
          (verdicts.get(name.toLowerCase()) ?? "UNAPPROVED") === "UNAPPROVED"
        ),
    ).catch(rethrowDuring(`update pull request #${pr_id}`));
    return {
      pullRequest: pullRequestOut(updated),
      reviewersDropped: dropped.length === 0 ? undefined : dropped.map((name) => visibleId(name)),
    };
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
  "Default: the repository's",
  (raw) => raw.trim().toLowerCase().replace(/[_\s]+/g, "-"),
);

/** The version to act on: the one given, or the current one. */
async function versionOf(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  given: number | undefined,
): Promise<number> {
  if (given !== undefined) return given;
  return (await readPullRequest(bitbucket, project, repo, id)).pr.version;
}

/** The plain-words name of a pull request as read now, with its version. */
async function describePr(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
): Promise<{ text: string; version: number; binding: { what: string; state: string } }> {
  const { pr } = await readPullRequest(bitbucket, project, repo, id);
  return {
    // A merge or decline moves the state on, so a replayed yes finds it changed.
    binding: { what: `the state of pull request #${id}`, state: pr.state },
    text: `pull request #${id} ${quoted(pr.title)} (${quoted(pr.fromRef.displayId)} → ${
      quoted(pr.toRef.displayId)
    }, version ${pr.version}) in ${project}/${repo}`,
    version: pr.version,
  };
}

/** How a merge's strategy reads in a sentence. */
function strategyWords(strategy: string | undefined): string {
  return strategy === undefined ? "with the repository's default strategy" : `with ${strategy}`;
}

export const mergePullRequest = defineTool({
  name: "merge_pull_request",
  defaultFor: "change",
  reach: "repository",
  title: "Merge a pull request",
  description: "Merge a pull request now; refused with the vetoes when a merge check fails.",
  access: unsafeWrite("merges into the target branch, which Bitbucket cannot undo"),
  input: PrArgs.extend({
    version: VersionArg,
    strategy: StrategyArg.optional(),
    message: textArg().optional(),
  }),
  output: z.object({ pullRequest: PullRequestOut }),
  async confirm({ project, repo, pr_id, version, strategy }, { bitbucket }) {
    const pr = await describePr(bitbucket, project, repo, pr_id);
    return {
      message: `Merge ${pr.text} ${strategyWords(strategy)}`,
      version: version ?? pr.version,
      binding: pr.binding,
    };
  },
  async handler(
    { project, repo, pr_id, version, strategy, message },
    { bitbucket, confirmed },
  ) {
    const given = version ?? confirmed?.version;
    const current = await versionOf(bitbucket, project, repo, pr_id, given);
    const merged = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/merge"),
      { version: current, strategyId: strategy, message },
    );
    return { pullRequest: pullRequestOut(merged) };
  },
});

export const declinePullRequest = defineTool({
  name: "decline_pull_request",
  reach: "repository",
  title: "Decline a pull request",
  description: "Decline (close unmerged) a pull request.",
  access: unsafeWrite("closes the pull request for every participant and stops its review"),
  input: PrArgs.extend({
    version: VersionArg,
    comment: textArg("Why").optional(),
  }),
  output: z.object({ pullRequest: PullRequestOut }),
  async confirm({ project, repo, pr_id, version }, { bitbucket }) {
    const pr = await describePr(bitbucket, project, repo, pr_id);
    return {
      message: `Decline ${pr.text}, closing it unmerged for every participant`,
      version: version ?? pr.version,
      binding: pr.binding,
    };
  },
  async handler({ project, repo, pr_id, version, comment }, { bitbucket, confirmed }) {
    const given = version ?? confirmed?.version;
    const current = await versionOf(bitbucket, project, repo, pr_id, given);
    const declined = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/decline"),
      { version: current, comment },
    );
    return { pullRequest: pullRequestOut(declined) };
  },
});

export const reopenPullRequest = defineTool({
  name: "reopen_pull_request",
  reach: "repository",
  title: "Reopen a pull request",
  description: "Reopen a declined pull request.",
  access: safeWrite("reopens a declined pull request for review; nothing is merged or lost"),
  input: PrArgs.extend({ version: VersionArg }),
  output: z.object({ pullRequest: PullRequestOut }),
  async handler({ project, repo, pr_id, version }, { bitbucket }) {
    const current = await versionOf(bitbucket, project, repo, pr_id, version);
    const reopened = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/reopen"),
      { version: current },
    );
    return { pullRequest: pullRequestOut(reopened) };
  },
});

/**
 * POSTs a merge, decline or reopen. The version goes in the body (RestPullRequest*Request)
 * and in the `version` query parameter the spec also documents, so that either
 * one a server reads holds the lock.
 */
async function postVersioned(
  bitbucket: BitbucketClient,
  path: string,
  body: { version: number } & Record<string, unknown>,
): Promise<z.infer<typeof PullRequest>> {
  const reply = await bitbucket.request({
    method: "POST",
    path,
    query: { version: body.version },
    body,
    schema: PullRequest,
  });
  return reply.body;
}

const AutoMergeOut = z.object({
  pullRequestId: z.number().int(),
  status: z.enum(["pending", "merged", "cancelled"]).describe(
    "pending: Bitbucket merges once every merge check passes; merged: it could merge at once; cancelled: no auto-merge is pending",
  ),
});

export const enableAutoMerge = defineTool({
  name: "enable_auto_merge",
  reach: "repository",
  title: "Enable auto-merge",
  description: "Merge a pull request as soon as every merge check passes.",
  access: unsafeWrite("merges into the target branch without another look, possibly at once"),
  idempotent: true,
  input: PrArgs.extend({ strategy: StrategyArg.optional() }),
  output: z.object({ autoMerge: AutoMergeOut }),
  async confirm({ project, repo, pr_id, strategy }, { bitbucket }) {
    // Below 8.15 the request is a plain merge: refused before the person is asked.
    await requireFeature(bitbucket, "autoMerge", `enable auto-merge of pull request #${pr_id}`);
    const pr = await describePr(bitbucket, project, repo, pr_id);
    return {
      message: `Merge ${pr.text} ${
        strategyWords(strategy)
      } as soon as every merge check passes (possibly at once), without asking again`,
      version: pr.version,
      binding: pr.binding,
    };
  },
  async handler({ project, repo, pr_id, strategy }, { bitbucket, confirmed }) {
    await requireFeature(bitbucket, "autoMerge", `enable auto-merge of pull request #${pr_id}`);
    const current = await versionOf(bitbucket, project, repo, pr_id, confirmed?.version);
    const pr = await postVersioned(
      bitbucket,
      prPath(project, repo, pr_id, "/merge"),
      { version: current, autoMerge: true, strategyId: strategy },
    );
    const status = pr.state === "MERGED" ? "merged" as const : "pending" as const;
    return { autoMerge: { pullRequestId: pr.id, status } };
  },
});

export const disableAutoMerge = defineTool({
  name: "disable_auto_merge",
  reach: "repository",
  title: "Disable auto-merge",
  description: "Cancel a pending auto-merge.",
  access: safeWrite(
    "only stops a pending auto-merge; nothing is merged or lost, and it can be asked for again",
  ),
  idempotent: true,
  input: PrArgs,
  output: z.object({ autoMerge: AutoMergeOut }),
  async handler({ project, repo, pr_id }, { bitbucket }) {
    await requireFeature(bitbucket, "autoMerge", `cancel auto-merge of pull request #${pr_id}`);
    await bitbucket.request({
      method: "DELETE",
      path: prPath(project, repo, pr_id, "/auto-merge"),
      schema: z.unknown(),
    });
    return { autoMerge: { pullRequestId: pr_id, status: "cancelled" as const } };
  },
});
