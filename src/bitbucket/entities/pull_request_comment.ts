/**
 * Pull request comments, where inline ones sit, and the activities that carry
 * them, as Bitbucket sends them (servers differ on where an anchor is put).
 */
import { z } from "../../deps/zod.ts";
import { ApplicationUser } from "./user.ts";
import { Commit } from "./commit.ts";
import { pathText, RestPath } from "./pull_request.ts";

/** A path as servers send it in an anchor: the plain text, or (as the spec types it) a RestPath. */
const AnchorPath = z.union([z.string(), RestPath.transform(pathText)]);

/**
 * Where an inline comment sits (RestCommentThreadDiffAnchor). The spec types
 * `path` as a RestPath object, but servers (and the spec's own examples) send
 * the plain path text: both are read, as text. A multiline comment also
 * carries where it starts (`multilineMarker`) and, as the server worked it
 * out, the lines it spans on each side (`multilineSpan`).
 */
export const CommentAnchor = z.object({
  path: AnchorPath,
  srcPath: AnchorPath.optional(),
  line: z.number().int().optional(),
  lineType: z.string().optional(), // ADDED, REMOVED or CONTEXT
  fileType: z.string().optional(), // FROM or TO
  diffType: z.string().optional(),
  fromHash: z.string().optional(),
  toHash: z.string().optional(),
  orphaned: z.boolean().optional(),
  multilineMarker: z.object({
    startLine: z.number().int().optional(),
    startLineType: z.string().optional(),
  }).optional(),
  multilineSpan: z.object({
    srcSpanStart: z.number().int().optional(),
    srcSpanEnd: z.number().int().optional(),
    dstSpanStart: z.number().int().optional(),
    dstSpanEnd: z.number().int().optional(),
  }).optional(),
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
  pending: z.boolean().optional(),
  resolvedDate: z.number().int().optional(),
  resolver: ApplicationUser.optional(),
  threadResolved: z.boolean().optional(),
  threadResolvedDate: z.number().int().optional(),
  threadResolver: ApplicationUser.optional(),
});

/** A pull request comment or task (RestComment) with its replies nested under `comments`. */
export type Comment = z.infer<typeof CommentFields> & { comments?: Comment[] };

/** Parses a {@link Comment}, replies included. */
export const Comment: z.ZodType<Comment> = CommentFields.extend({
  get comments() {
    return z.array(Comment).optional();
  },
});

/** The commits a rescope added or removed (RescopeDetails): some of them, and how many in all. */
const RescopeDetails = z.object({
  commits: z.array(Commit).default([]),
  total: z.number().int().optional(),
});

/**
 * One entry of a pull request's activity stream (RestPullRequestActivity).
 * The 9.4 spec lists only the common fields; servers send more by action:
 * a comment activity (COMMENTED, REVIEW_COMMENTED) its `commentAction`, the
 * `comment` and, for an inline one, the `commentAnchor` (the comment itself
 * may lack `anchor`); RESCOPED the hashes and the commits `added` and
 * `removed`; MERGED the merge `commit`; UPDATED the reviewers added and removed.
 */
export const Activity = z.object({
  id: z.number().int(),
  action: z.string(),
  createdDate: z.number().int(),
  user: ApplicationUser.optional(),
  commentAction: z.string().optional(), // ADDED (a new thread), REPLIED, EDITED or DELETED
  comment: Comment.optional(),
  commentAnchor: CommentAnchor.optional(),
  fromHash: z.string().optional(),
  previousFromHash: z.string().optional(),
  toHash: z.string().optional(),
  added: RescopeDetails.optional(),
  removed: RescopeDetails.optional(),
  commit: Commit.pick({ id: true, displayId: true }).optional(),
  addedReviewers: z.array(ApplicationUser).optional(),
  removedReviewers: z.array(ApplicationUser).optional(),
});
