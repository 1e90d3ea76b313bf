/** Pull request comments, threads and tasks as tools return them. */
import { z } from "zod";
import type { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { UserOut, userOut } from "./user.ts";

const AnchorOut = z.object({
  path: z.string(),
  line: z.number().int().optional(),
  lineType: z.string().optional().describe("ADDED, REMOVED or CONTEXT"),
  fileType: z.string().optional().describe("FROM (old side) or TO (new side)"),
  srcPath: z.string().optional(),
});

const CommentFields = z.object({
  id: z.number().int(),
  version: z.number().int(),
  author: UserOut,
  text: z.string(),
  createdDate: z.number().int(),
  state: z.string().optional().describe("OPEN or RESOLVED"),
  severity: z.string().optional().describe("NORMAL, or BLOCKER for a task"),
});

/** A reply, flattened out of its thread; `parentId` says what it answers. */
const ReplyOut = CommentFields.extend({ parentId: z.number().int() });

/** A comment thread: its root comment, inline anchor if any, and every reply in order. */
export const CommentOut = CommentFields.extend({
  anchor: AnchorOut.optional().describe("Where an inline comment sits"),
  replies: z.array(ReplyOut),
});

/** A task: a blocker comment. */
export const TaskOut = CommentFields.omit({ severity: true }).extend({
  anchor: AnchorOut.optional(),
  resolvedDate: z.number().int().optional(),
});

function fields(c: Comment): z.infer<typeof CommentFields> {
  return {
    id: c.id,
    version: c.version,
    author: userOut(c.author),
    text: c.text,
    createdDate: c.createdDate,
    state: c.state,
    severity: c.severity,
  };
}

function anchorOut(c: Comment): z.infer<typeof AnchorOut> | undefined {
  if (c.anchor === undefined) return undefined;
  const { path, line, lineType, fileType, srcPath } = c.anchor;
  return { path, line, lineType, fileType, srcPath };
}

/** A Bitbucket comment as a thread: its replies flattened in order, each naming its parent. */
export function commentOut(c: Comment): z.infer<typeof CommentOut> {
  const replies: z.infer<typeof ReplyOut>[] = [];
  const walk = (parent: Comment) => {
    for (const reply of parent.comments ?? []) {
      replies.push({ ...fields(reply), parentId: parent.id });
      walk(reply);
    }
  };
  walk(c);
  return { ...fields(c), anchor: anchorOut(c), replies };
}

/** A Bitbucket blocker comment as a task. */
export function taskOut(c: Comment): z.infer<typeof TaskOut> {
  const { severity: _, ...rest } = fields(c);
  return { ...rest, anchor: anchorOut(c), resolvedDate: c.resolvedDate };
}
