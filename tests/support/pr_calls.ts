/**
 * What the pull request tests share: the arguments naming pull request #42,
 * calls that return what a user sees, and the payload shapes the tests read,
 * as zod schemas so every field a test touches is typed and checked. The
 * schemas are loose: they keep every field they do not name, so a test's
 * deepEqual still sees the whole payload.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { firstText, type Harness } from "../../testing/harness.ts";
import { APPLICATION_PROPERTIES } from "../../testing/cases/server_version.ts";

/** The arguments naming pull request #42 in PROJ/web. */
export const ARGS = { project: "PROJ", repo: "web", pr_id: 42 };

/** Calls a tool and returns what a user sees of an answer: the error flag and the text block. */
export async function call(
  h: Harness,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  const result = await h.client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: firstText(result) };
}

/** Calls a tool that must succeed and returns its payload, checked against `schema`. */
export async function payload<S extends z.ZodType>(
  h: Harness,
  name: string,
  schema: S,
  args: Record<string, unknown>,
): Promise<z.infer<S>> {
  const result = await h.client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, firstText(result));
  return schema.parse(result.structuredContent);
}

/**
 * The requests the fixture Bitbucket saw, as method, path, query and body,
 * besides the read of its version (a call needing a newer feature reads it
 * first; tests/bitbucket/features_test.ts holds when).
 */
export function seen(h: Harness) {
  return h.fixture.requests.filter((r) => r.path !== APPLICATION_PROPERTIES).map((r) => ({
    method: r.method,
    path: r.path,
    query: r.query,
    ...(r.body === undefined ? {} : { body: r.body }),
  }));
}

const User = z.looseObject({ name: z.string(), displayName: z.string().optional() });
const Ref = z.looseObject({
  id: z.string(),
  displayId: z.string(),
  latestCommit: z.string().optional(),
  repository: z.string(),
});

/** A pull request as the tools give it (a listing leaves out the description). */
export const PullRequest = z.looseObject({
  id: z.number(),
  version: z.number(),
  title: z.string(),
  description: z.string().optional(),
  state: z.string(),
  draft: z.boolean(),
  author: User,
  reviewers: z.array(User.extend({ status: z.string() })),
  fromRef: Ref,
  toRef: Ref,
  createdDate: z.string(),
  link: z.string().optional(),
});

/** get_pull_request, and every write that answers with the pull request. */
export const PullRequestPayload = z.looseObject({
  pullRequest: PullRequest,
  reviewersDropped: z.array(z.string()).optional(),
});

/** create_pull_request: the pull request and the default reviewers it added. */
export const CreatedPayload = z.looseObject({
  pullRequest: PullRequest,
  defaultReviewersAdded: z.array(z.string()),
});

/** get_default_reviewers. */
export const ReviewersPayload = z.looseObject({ reviewers: z.array(User) });

/** list_pull_requests. */
export const PullRequestsPayload = z.looseObject({ pullRequests: z.array(PullRequest) });

/** get_pr_diff. */
export const DiffPayload = z.looseObject({
  diff: z.string(),
  truncated: z.boolean(),
  omittedFiles: z.array(z.string()).optional(),
});

/** list_pr_changes. */
export const ChangesPayload = z.looseObject({
  changes: z.array(z.looseObject({ path: z.string(), type: z.string() })),
  isLastPage: z.boolean(),
});

/** list_pr_commits. */
export const CommitsPayload = z.looseObject({
  commits: z.array(z.looseObject({ id: z.string(), message: z.string() })),
});

/** get_pr_merge_status. */
export const MergeStatusPayload = z.looseObject({
  mergeStatus: z.looseObject({
    canMerge: z.boolean(),
    strategies: z.array(z.string()),
    defaultStrategy: z.string().optional(),
  }),
});

/** list_pr_activity. */
export const ActivitiesPayload = z.looseObject({
  activities: z.array(z.looseObject({ id: z.number(), action: z.string() })),
  isLastPage: z.boolean(),
});

const Anchor = z.looseObject({ path: z.string(), line: z.number().optional() });
/** A comment: its thread's replies are comments too (only the fields the tests read are named). */
export const Comment = z.looseObject({
  id: z.number(),
  version: z.number(),
  text: z.string(),
  author: User,
  state: z.string().optional(),
  severity: z.string().optional(),
  anchor: Anchor.optional(),
  threadResolved: z.boolean(),
  threadResolver: User.optional(),
  replies: z.array(z.looseObject({ id: z.number(), parentId: z.number(), text: z.string() })),
});

/** list_pr_comments. */
export const CommentsPayload = z.looseObject({
  comments: z.array(Comment),
  isLastPage: z.boolean(),
  nextPageStart: z.number().optional(),
});

/** add_pr_comment and update_pr_comment. */
export const CommentPayload = z.looseObject({ comment: Comment });

/** delete_pr_comment. */
export const DeletedPayload = z.looseObject({
  deleted: z.looseObject({ id: z.number(), text: z.string() }),
});

/** apply_pr_suggestion. */
export const SuggestionPayload = z.looseObject({
  commit: z.looseObject({
    id: z.string().optional(),
    branch: z.string(),
    previous: z.string().optional(),
  }),
});

const Task = z.looseObject({ id: z.number(), state: z.string() });
/** list_pr_tasks. */
export const TasksPayload = z.looseObject({
  tasks: z.array(Task),
  isLastPage: z.boolean(),
  nextPageStart: z.number().optional(),
});

/** submit_pr_review. */
export const ParticipantPayload = z.looseObject({
  participant: z.looseObject({ name: z.string(), status: z.string() }),
  published: z.array(z.number()),
});

/** discard_pr_review. */
export const DiscardedPayload = z.looseObject({
  discarded: z.looseObject({ pullRequestId: z.number(), comments: z.array(z.number()) }),
});

/** enable_auto_merge and disable_auto_merge. */
export const AutoMergePayload = z.looseObject({
  autoMerge: z.looseObject({ pullRequestId: z.number(), status: z.string() }),
});
