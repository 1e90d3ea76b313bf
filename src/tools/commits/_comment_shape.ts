/** Commit comments as the commit tools return them: each thread, where it sits, and its replies. */
import { z } from "../../deps/zod.ts";
import type { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { cleanText } from "../../bitbucket/untrusted_text.ts";
import { DateOut, isoDate } from "../kit/shapes/date.ts";
import { UserOut, userOut } from "../kit/shapes/user.ts";

const CommentFields = z.object({
  id: z.number().int(),
  version: z.number().int(),
  author: UserOut,
  text: z.string(),
  createdDate: DateOut,
});

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

function fields(c: Comment): z.infer<typeof CommentFields> {
  return {
    id: c.id,
    version: c.version,
    author: userOut(c.author),
    text: cleanText(c.text),
    createdDate: isoDate(c.createdDate),
  };
}

/** A Bitbucket commit comment as a thread, its replies flattened in order. */
export function commitCommentOut(c: Comment): z.infer<typeof CommitCommentOut> {
  const replies: z.infer<typeof ReplyOut>[] = [];
  const walk = (parent: Comment) => {
    for (const reply of parent.comments ?? []) {
      replies.push({ ...fields(reply), parentId: parent.id });
      walk(reply);
    }
  };
  walk(c);
  const a = c.anchor;
  return {
    ...fields(c),
    anchor: a && {
      path: cleanText(a.path),
      line: a.line,
      lineType: a.lineType,
      fileType: a.fileType,
    },
    replies,
  };
}
