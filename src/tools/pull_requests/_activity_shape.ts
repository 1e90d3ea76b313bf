/** A pull request's timeline entries as tools return them: one compact line each. */
import { z } from "../../deps/zod.ts";
import type { Activity } from "../../bitbucket/entities/pull_request_comment.ts";
import { cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { DateOut, isoDate } from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** The longest comment text an entry quotes; the thread itself is in list_pr_comments. */
const QUOTE_CHARS = 160;

/** One event of a pull request's timeline. */
export const ActivityOut = z.object({
  id: z.number().int(),
  action: z.string().describe(
    "OPENED, UPDATED, RESCOPED, APPROVED, UNAPPROVED, REVIEWED (needs work), COMMENTED, MERGED, DECLINED, REOPENED...",
  ),
  createdDate: DateOut,
  user: z.string().optional().describe("Username"),
  commentId: z.number().int().optional(),
  commentAction: z.string().optional().describe("ADDED, REPLIED, EDITED or DELETED"),
  text: z.string().optional().describe("The comment's start"),
  commitsAdded: z.array(z.string()).optional().describe("Commit ids a push added"),
  commitsRemoved: z.array(z.string()).optional(),
  commit: z.string().optional().describe("The merge commit"),
  reviewersAdded: z.array(z.string()).optional(),
  reviewersRemoved: z.array(z.string()).optional(),
});

/**
 * The start of a comment, cleaned before it is cut (invisible characters
 * cannot fill it) and cut between code points, never inside a pair.
 */
function quote(text: string): string {
  const chars = Array.from(cleanText(text));
  return chars.length <= QUOTE_CHARS
    ? chars.join("")
    : `${chars.slice(0, QUOTE_CHARS - 1).join("")}…`;
}

const ids = (commits: { id: string }[] | undefined) => commits?.map((c) => c.id);

const names = (users: { name: string }[] | undefined) =>
  users === undefined || users.length === 0 ? undefined : users.map((u) => visibleId(u.name));

/** Trims a Bitbucket activity to {@link ActivityOut}: only the fields its action carries. */
export function activityOut(a: z.infer<typeof Activity>): z.infer<typeof ActivityOut> {
  return {
    id: a.id,
    action: a.action,
    createdDate: isoDate(a.createdDate),
    user: visibleId(a.user?.name),
    commentId: a.comment?.id,
    commentAction: a.commentAction,
    text: a.comment === undefined ? undefined : quote(a.comment.text),
    commitsAdded: ids(a.added?.commits),
    commitsRemoved: ids(a.removed?.commits),
    commit: a.commit?.id,
    reviewersAdded: names(a.addedReviewers),
    reviewersRemoved: names(a.removedReviewers),
  };
}
