import { z } from "zod";
import { ApplicationUser } from "./user.ts";
import { pathText, RestPath } from "./pull_request.ts";

/**
 * Where an inline comment sits (RestCommentThreadDiffAnchor). The spec types
 * `path` as a RestPath object, but servers (and the spec's own examples) send
 * the plain path text: both are read, as text.
 */
export const CommentAnchor = z.object({
  path: z.union([z.string(), RestPath.transform(pathText)]),
  srcPath: z.union([z.string(), RestPath.transform(pathText)]).optional(),
  line: z.number().int().optional(),
  lineType: z.string().optional(), // ADDED, REMOVED or CONTEXT
  fileType: z.string().optional(), // FROM or TO
  diffType: z.string().optional(),
  fromHash: z.string().optional(),
  toHash: z.string().optional(),
});

const CommentFields = z.object({
  id: z.number().int(),
  version: z.number().int(),
  text: z.string(),
  author: ApplicationUser,
  createdDate: z.number().int(),
  updatedDate: z.number().int().optional(),
  state: z.string().optional(), // OPEN, PENDING or RESOLVED
  severity: z.string().optional(), // NORMAL, or BLOCKER for a task
  anchor: CommentAnchor.optional(),
  parent: z.object({ id: z.number().int() }).optional(),
  resolvedDate: z.number().int().optional(),
  resolver: ApplicationUser.optional(),
  threadResolved: z.boolean().optional(),
});

/** A pull request comment or task (RestComment) with its replies nested under `comments`. */
export type Comment = z.infer<typeof CommentFields> & { comments?: Comment[] };

/** Parses a {@link Comment}, replies included. */
export const Comment: z.ZodType<Comment> = CommentFields.extend({
  get comments() {
    return z.array(Comment).optional();
  },
});

/**
 * One entry of a pull request's activity stream (RestPullRequestActivity).
 * Comment activities also carry `commentAction` and `comment`, which servers
 * send though the 9.4 spec lists only the common fields.
 */
export const Activity = z.object({
  id: z.number().int(),
  action: z.string(),
  createdDate: z.number().int(),
  user: ApplicationUser.optional(),
  commentAction: z.string().optional(), // ADDED (a new thread), REPLIED or DELETED
  comment: Comment.optional(),
});
