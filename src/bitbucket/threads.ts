/**
 * Reading a pull request's comments as servers send them: threads from the
 * activity stream (where an inline comment's location may sit on the
 * activity, not the comment), and any paged listing filtered again here, for
 * servers that ignore a filter they were sent.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient, Query } from "./transport/client.ts";
import { Activity, type Comment, type CommentAnchor } from "./entities/pull_request_comment.ts";
import { type Collected, MAX_LIMIT, pageOf } from "./transport/paging.ts";

/** A thread's root comment, with the anchor its activity carried. */
export interface Thread {
  comment: Comment;
  anchor?: z.infer<typeof CommentAnchor>;
}

/** The activities that carry a comment: one posted directly, or published with a finished review. */
const COMMENT_ACTIONS = new Set(["COMMENTED", "REVIEW_COMMENTED"]);

/**
 * The comment threads of a pull request, newest first, from its activity
 * stream: each thread is the comment of the activity that ADDED it (the
 * comment as it is now, replies nested). A DELETED activity hides its
 * comment, whichever comes first. Paging counts threads, not activities:
 * every call reads the stream from its start, so a deletion on an earlier
 * page of the stream still hides its thread on a later one.
 */
export async function listThreads(
  bitbucket: BitbucketClient,
  path: string,
  paging: { start?: number; limit: number },
  keep: (thread: Thread) => boolean,
): Promise<Collected<Thread>> {
  const schema = pageOf(Activity);
  const skip = paging.start ?? 0;
  const pageSize = Math.min(MAX_LIMIT, Math.max(100, skip + paging.limit));
  const added: Thread[] = [];
  const deleted = new Set<number>();
  let start = 0;
  for (;;) {
    const { body: page } = await bitbucket.request({
      path,
      schema,
      query: { start, limit: pageSize },
    });
    for (const activity of page.values) {
      const { action, commentAction, comment } = activity;
      if (!COMMENT_ACTIONS.has(action) || comment === undefined) continue;
      if (commentAction === "DELETED") deleted.add(comment.id);
      else if (commentAction === "ADDED") added.push({ comment, anchor: activity.commentAnchor });
    }
    const kept = added.filter((t) => !deleted.has(t.comment.id) && keep(t));
    const next = page.nextPageStart ?? undefined;
    const last = page.isLastPage || next === undefined || page.values.length === 0;
    // One thread past the page shows there is more; deletions come before what they delete.
    if (last || kept.length > skip + paging.limit) {
      const values = kept.slice(skip, skip + paging.limit);
      return kept.length > skip + paging.limit
        ? { values, isLastPage: false, nextPageStart: skip + values.length }
        : { values, isLastPage: true };
    }
    start = next;
  }
}

/**
 * Walks a paged listing from `start` until `limit` items pass `keep`, so a
 * filter is right even when the server ignored the one it was sent.
 * `nextPageStart` is the listing's index just after the last item kept.
 */
export async function collectKept<T extends z.ZodType>(
  bitbucket: BitbucketClient,
  path: string,
  item: T,
  paging: { start?: number; limit: number },
  query: Query,
  keep: (value: z.infer<T>) => boolean,
): Promise<Collected<z.infer<T>>> {
  const schema = pageOf(item);
  const values: z.infer<T>[] = [];
  let start = paging.start ?? 0;
  for (;;) {
    const want = Math.min(MAX_LIMIT, paging.limit - values.length);
    const { body: page } = await bitbucket.request({
      path,
      schema,
      query: { ...query, start, limit: want },
    });
    const next = page.nextPageStart ?? undefined;
    const last = page.isLastPage || next === undefined || page.values.length === 0;
    for (const [i, value] of page.values.entries()) {
      if (!keep(value)) continue;
      values.push(value);
      if (values.length < paging.limit) continue;
      if (i + 1 < page.values.length) {
        return { values, isLastPage: false, nextPageStart: start + i + 1 };
      }
      return last
        ? { values, isLastPage: true }
        : { values, isLastPage: false, nextPageStart: next };
    }
    if (last) return { values, isLastPage: true };
    start = next;
  }
}
