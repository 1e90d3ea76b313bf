/** Pull request comments, threads and tasks as tools return them. */
import { z } from "../../deps/zod.ts";
import type { Comment, CommentAnchor } from "../../bitbucket/entities/pull_request_comment.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import {
  CommentBase,
  commentBaseOut,
  DateOut,
  flattenReplies,
  isoDate,
  UserOut,
  userOut,
} from "../kit/mod.ts";

const AnchorOut = z.object({
  path: z.string(),
  line: z.number().int().optional(),
  lineType: z.string().optional().describe("ADDED, REMOVED or CONTEXT"),
  fileType: z.string().optional().describe("FROM (old side) or TO (new side)"),
  srcPath: z.string().optional().describe("Old path of a moved or copied file"),
  startLine: z.number().int().optional().describe("First line of a multiline comment"),
  startLineType: z.string().optional(),
  orphaned: z.boolean().optional().describe("Outdated: its line is gone from the diff"),
});

const CommentFields = CommentBase.extend({
  state: z.string().optional().describe("OPEN, PENDING (a draft) or RESOLVED (a task)"),
  severity: z.string().optional().describe("NORMAL, or BLOCKER for a task"),
});

/** A reply, flattened out of its thread; `parentId` says what it answers. */
const ReplyOut = CommentFields.extend({ parentId: z.number().int() });

/**
 * A comment thread: its root comment, inline anchor if any, whether the
 * discussion was resolved (apart from a task's own state), and every reply in order.
 */
export const CommentOut = CommentFields.extend({
  anchor: AnchorOut.optional().describe("Where an inline comment sits"),
  threadResolved: z.boolean().describe("The discussion was marked resolved"),
  threadResolver: UserOut.optional(),
  threadResolvedDate: DateOut.optional(),
  replies: z.array(ReplyOut),
});

/** A task: a blocker comment. */
export const TaskOut = CommentFields.omit({ severity: true }).extend({
  anchor: AnchorOut.optional(),
  resolvedDate: DateOut.optional(),
});

function fields(c: Comment): z.infer<typeof CommentFields> {
  return {
    ...commentBaseOut(c),
    state: c.state,
    severity: c.severity,
  };
}

function anchorOut(
  anchor: z.infer<typeof CommentAnchor> | undefined,
): z.infer<typeof AnchorOut> | undefined {
  if (anchor === undefined) return undefined;
  const { path, line, lineType, fileType, srcPath, multilineMarker, orphaned } = anchor;
  return {
    path: visibleId(path),
    line,
    lineType,
    fileType,
    srcPath: visibleId(srcPath),
    startLine: multilineMarker?.startLine,
    startLineType: multilineMarker?.startLineType,
    orphaned: orphaned || undefined,
  };
}

/**
 * A Bitbucket comment as a thread: its replies flattened in order, each
 * naming its parent. Servers put an inline comment's location on the
 * comment (`anchor`) or only on the activity that carries it
 * (`commentAnchor`): `activityAnchor` is that second place, read when the first is empty.
 */
export function commentOut(
  c: Comment,
  activityAnchor?: z.infer<typeof CommentAnchor>,
): z.infer<typeof CommentOut> {
  const replies: z.infer<typeof ReplyOut>[] = flattenReplies(c, fields);
  return {
    ...fields(c),
    anchor: anchorOut(c.anchor ?? activityAnchor),
    threadResolved: c.threadResolved ?? false,
    threadResolver: c.threadResolver && userOut(c.threadResolver),
    threadResolvedDate: isoDate(c.threadResolvedDate),
    replies,
  };
}

/** A Bitbucket blocker comment as a task. */
export function taskOut(c: Comment): z.infer<typeof TaskOut> {
  const { severity: _, ...rest } = fields(c);
  return { ...rest, anchor: anchorOut(c.anchor), resolvedDate: isoDate(c.resolvedDate) };
}
