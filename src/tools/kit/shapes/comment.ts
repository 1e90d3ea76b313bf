/**
 * What every comment carries as tools return it, pull request and commit
 * comments alike, and its replies flattened depth first, each naming the
 * comment it answers, so a thread reads top to bottom without nesting.
 */
import { z } from "../../../deps/zod.ts";
import type { Comment } from "../../../bitbucket/entities/pull_request_comment.ts";
import { cleanText } from "../../../bitbucket/text/untrusted_text.ts";
import { DateOut, isoDate } from "./date.ts";
import { UserOut, userOut } from "./user.ts";

/** The fields of every comment: its id and version, who wrote it, its text and when. */
export const CommentBase = z.object({
  id: z.number().int(),
  version: z.number().int(),
  author: UserOut,
  text: z.string(),
  createdDate: DateOut,
});

/** A comment's {@link CommentBase} fields, its text cleaned (someone else wrote it). */
export function commentBaseOut(c: Comment): z.infer<typeof CommentBase> {
  return {
    id: c.id,
    version: c.version,
    author: userOut(c.author),
    text: cleanText(c.text),
    createdDate: isoDate(c.createdDate),
  };
}

/** Every reply under `comment`, depth first, as `out` gives it, with the id of the comment it answers. */
export function flattenReplies<R>(
  comment: Comment,
  out: (reply: Comment) => R,
): (R & { parentId: number })[] {
  const replies: (R & { parentId: number })[] = [];
  const walk = (parent: Comment) => {
    for (const reply of parent.comments ?? []) {
      replies.push({ ...out(reply), parentId: parent.id });
      walk(reply);
    }
  };
  walk(comment);
  return replies;
}
