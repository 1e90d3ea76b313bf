/**
 * Your review of a pull request: the verdict, with the pending (draft)
 * comments it publishes; the drafts themselves; and discarding them.
 */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { Participant, type PullRequest } from "../../bitbucket/entities/pull_request.ts";
import { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { ApplicationUser } from "../../bitbucket/entities/user.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { collectPages, MAX_LIMIT, pageOf } from "../../bitbucket/transport/paging.ts";
import {
  choiceArg,
  defineListTool,
  defineTool,
  PrArgs,
  READ_ONLY,
  textArg,
  unsafeWrite,
  UserOut,
  userOut,
} from "../kit/mod.ts";
import { prPath, readPullRequest } from "../../bitbucket/pull_requests.ts";
import { callerName } from "./_caller.ts";
import { CommentOut, commentOut } from "./_comment_shape.ts";
import { quoted } from "../../bitbucket/text/untrusted_text.ts";

const REVIEW_STATUS = {
  APPROVE: "APPROVED",
  UNAPPROVE: "UNAPPROVED",
  NEEDS_WORK: "NEEDS_WORK",
} as const;

/** The most pending comments listed, ten pages; a review with more says its list is partial. */
export const MAX_PENDING = 10 * MAX_LIMIT;

/** The caller's pending comments on a pull request: their ids, and whether that is all of them. */
interface Pending {
  ids: number[];
  /** False when there are more than {@link MAX_PENDING}. */
  complete: boolean;
}

/** The ids of the caller's pending comments on a pull request, up to {@link MAX_PENDING}. */
async function pendingIds(bitbucket: BitbucketClient, path: string): Promise<Pending> {
  const page = await collectPages(bitbucket, path, Comment, { limit: MAX_PENDING });
  return { ids: page.values.map((c) => c.id), complete: page.isLastPage };
}

/** How many pending comments there are, in a sentence: "3", or "more than 10000" past the bound. */
function pendingCount({ ids, complete }: Pending): string {
  return complete ? String(ids.length) : `more than ${ids.length}`;
}

/** The binding state of the pending comments: their ids, marked when the list was cut. */
function pendingState({ ids, complete }: Pending): string {
  if (ids.length === 0) return "none";
  return complete ? ids.join(",") : `${ids.join(",")},…`;
}

/**
 * The slug of the user named `name`: from the pull request's people when they
 * are among them, else from Bitbucket's user search.
 */
async function slugOf(
  bitbucket: BitbucketClient,
  pr: z.infer<typeof PullRequest>,
  name: string,
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
  });
  const found = users.values.find(same);
  if (found?.slug) return found.slug;
  throw new Error(
    `Cannot review as ${name}: Bitbucket's user search does not find that user's slug (hint: check that the token belongs to an active user)`,
  );
}

/** Sets the caller's review status alone, when there is nothing to publish with it. */
async function setStatus(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  status: string,
): Promise<z.infer<typeof Participant>> {
  // The participant resource is keyed by user slug. The pull request GET names
  // the token's user in X-AUSERNAME, and its people usually include them.
  const { pr, headers } = await readPullRequest(bitbucket, project, repo, id);
  const name = callerName(headers, `GET ${prPath(project, repo, id)}`);
  const slug = await slugOf(bitbucket, pr, name);
  const { body } = await bitbucket.request({
    method: "PUT",
    path: prPath(project, repo, id) + apiPath`/participants/${slug}`,
    schema: Participant,
    body: { status },
  });
  return body;
}

/** How each verdict reads in a sentence. */
const REVIEW_WORDS = {
  APPROVE: "Approve",
  UNAPPROVE: "Withdraw your approval of",
  NEEDS_WORK: "Mark as needing work",
} as const;

export const submitPrReview = defineTool({
  name: "submit_pr_review",
  defaultFor: "review",
  reach: "repository",
  title: "Review a pull request",
  description:
    "Approve, unapprove or ask for changes; publishes your pending comments and a summary.",
  access: unsafeWrite("an approval or needs-work status feeds the merge checks"),
  idempotent: true,
  input: PrArgs.extend({
    action: choiceArg(["APPROVE", "UNAPPROVE", "NEEDS_WORK"] as const, "Verdict"),
    comment: textArg("Summary (Markdown)").min(1).optional(),
  }),
  output: z.object({
    participant: UserOut.extend({
      role: z.string().optional().describe("AUTHOR, REVIEWER or PARTICIPANT"),
      status: z.string().describe("APPROVED, NEEDS_WORK or UNAPPROVED"),
      lastReviewedCommit: z.string().optional(),
    }),
    published: z.array(z.number().int()).describe("Ids of your pending comments now published"),
    publishedComplete: z.literal(false).optional().describe(
      `More published than listed (over ${MAX_PENDING})`,
    ),
  }),
  async confirm({ project, repo, pr_id, action, comment }, { bitbucket }) {
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
    const pending = await pendingIds(bitbucket, prPath(project, repo, pr_id, "/review"));
    // A review moves a verdict on or publishes the drafts, so a replayed yes finds this changed.
    const verdicts = [...pr.reviewers, ...pr.participants]
      .map((p) => `${p.user.name}=${p.status ?? "UNAPPROVED"}`).sort().join(",");
    return {
      message: `${REVIEW_WORDS[action]} pull request #${pr_id} ${
        quoted(pr.title)
      } in ${project}/${repo} (version ${pr.version}) as you${
        comment === undefined ? "" : ", with the summary comment given"
      }, publishing your ${pendingCount(pending)} pending comments; this feeds its merge checks`,
      binding: {
        what: `the review of pull request #${pr_id}`,
        state: `version ${pr.version}; verdicts ${verdicts || "none"}; pending ${
          pendingState(pending)
        }`,
      },
    };
  },
  async handler({ project, repo, pr_id, action, comment }, { bitbucket }) {
    const status = REVIEW_STATUS[action];
    const reviewPath = prPath(project, repo, pr_id, "/review");
    const pending = await pendingIds(bitbucket, reviewPath);
    let participant: z.infer<typeof Participant>;
    if (pending.ids.length === 0 && comment === undefined) {
      participant = await setStatus(bitbucket, project, repo, pr_id, status);
    } else {
      // Completing the review publishes the drafts and the summary with the status, at once.
      const { body, headers } = await bitbucket.request({
        method: "PUT",
        path: reviewPath,
        schema: z.unknown(),
        body: { participantStatus: status, commentText: comment },
      });
      const answered = Participant.safeParse(body);
      participant = answered.success
        ? answered.data
        : { user: { name: callerName(headers, `PUT ${reviewPath}`) } };
    }
    return {
      participant: {
        ...userOut(participant.user),
        role: participant.role,
        status: participant.status ?? status,
        lastReviewedCommit: participant.lastReviewedCommit,
      },
      published: pending.ids,
      publishedComplete: pending.complete ? undefined : false as const,
    };
  },
});

export const getPrReview = defineListTool({
  name: "get_pr_review",
  defaultFor: "review",
  reach: "repository",
  title: "Get your pending review",
  description: "Your unpublished (pending) comments on a pull request.",
  access: READ_ONLY,
  input: PrArgs,
  key: "comments",
  item: CommentOut,
  entity: Comment,
  map: (c) => commentOut(c),
  request: ({ project, repo, pr_id }) => ({ path: prPath(project, repo, pr_id, "/review") }),
});

export const discardPrReview = defineTool({
  name: "discard_pr_review",
  defaultFor: "review",
  reach: "repository",
  title: "Discard your pending review",
  description: "Delete your unpublished (pending) comments on a pull request.",
  access: unsafeWrite("your draft comments are deleted and cannot be recovered"),
  idempotent: true,
  input: PrArgs,
  output: z.object({
    discarded: z.object({
      pullRequestId: z.number().int(),
      comments: z.array(z.number().int()).describe("Ids of the drafts deleted"),
      commentsComplete: z.literal(false).optional().describe(
        `More deleted than listed (over ${MAX_PENDING})`,
      ),
    }),
  }),
  async confirm({ project, repo, pr_id }, { bitbucket }) {
    const pending = await pendingIds(bitbucket, prPath(project, repo, pr_id, "/review"));
    return {
      message: `Delete your ${
        pendingCount(pending)
      } pending (unpublished) comments on pull request #${pr_id} in ${project}/${repo}; they cannot be recovered`,
      // Discarding empties the drafts, so a replayed yes finds them changed.
      binding: {
        what: `your pending comments on pull request #${pr_id}`,
        state: pending.ids.length === 0 ? "none" : `ids ${pendingState(pending)}`,
      },
    };
  },
  async handler({ project, repo, pr_id }, { bitbucket }) {
    const path = prPath(project, repo, pr_id, "/review");
    const pending = await pendingIds(bitbucket, path);
    // Bitbucket discards the whole review, listed or not.
    await bitbucket.request({ method: "DELETE", path, schema: z.unknown() });
    return {
      discarded: {
        pullRequestId: pr_id,
        comments: pending.ids,
        commentsComplete: pending.complete ? undefined : false as const,
      },
    };
  },
});
