/** Commit comments as the commit tools return them: each thread, where it sits, and its replies. */
import { z } from "../../deps/zod.ts";
import type { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { CommentBase, commentBaseOut, flattenReplies } from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

const CommentFields = CommentBase;

/** A reply, flattened out of its thread; `parentId` says what it answers. */
const ReplyOut = CommentFields.extend({ parentId: z.number().int() });

/** A commit comment thread: its root comment, the line it sits on if any, every reply in order. */
export const CommitCommentOut = CommentFields.extend({
  anchor: z.object({
    path: z.string(),
    line: z.number().int().optional(),
    lineType: z.string().optional().describe("ADDED, REMOVED or CONTEXT"),
    fileType: z.string().optional().describe("FROM (old side) or TO (new side)"),
  }).optional().describe("Where a file or line comment sits"),
  replies: z.array(ReplyOut),
});

const fields = commentBaseOut;

/** A Bitbucket commit comment as a thread, its replies flattened in order. */
export function commitCommentOut(c: Comment): z.infer<typeof CommitCommentOut> {
  const replies: z.infer<typeof ReplyOut>[] = flattenReplies(c, fields);
  const a = c.anchor;
  return {
    ...fields(c),
    anchor: a && {
      path: visibleId(a.path),
      line: a.line,
      lineType: a.lineType,
      fileType: a.fileType,
    },
    replies,
  };
}
