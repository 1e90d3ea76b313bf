import { z } from "zod";
import type { BitbucketClient } from "../bitbucket/client.ts";
import { Activity, Comment } from "../bitbucket/entities/pull_request_comment.ts";
import { type Collected, collectPages, MAX_LIMIT, pageOf } from "../bitbucket/paging.ts";
import { apiPath } from "../bitbucket/path.ts";
import { choiceArg, idArg, PagingArgs, pathArg, PrArgs, textArg } from "./args.ts";
import { defineTool, READ_ONLY, safeWrite, unsafeWrite } from "./define.ts";
import { listing } from "./listing.ts";
import { prPath } from "./pull_request_lookup.ts";
import { CommentOut, commentOut, TaskOut, taskOut } from "./shapes/comment.ts";
import { pagedOutput, pagedResult } from "./shapes/page.ts";

/**
 * The comment threads of a pull request, from its activity stream (newest
 * first): an activity that added a thread carries its root comment with the
 * replies. Replies have activities of their own (REPLIED), and a deleted
 * comment keeps its ADDED activity beside a newer DELETED one; both are
 * skipped. Paging counts activities, so `nextPageStart` resumes the stream
 * after the last thread returned.
 */
async function threadsFromActivities(
  bitbucket: BitbucketClient,
  path: string,
  paging: { start?: number; limit: number },
  keep: (c: Comment) => boolean,
  signal: AbortSignal,
): Promise<Collected<Comment>> {
  const schema = pageOf(Activity);
  const threads: Comment[] = [];
  const skip = new Set<number>();
  const pageSize = Math.min(MAX_LIMIT, Math.max(paging.limit, 100));
  let start = paging.start ?? 0;
  for (;;) {
    const { body: page } = await bitbucket.request({
      path,
      schema,
      query: { start, limit: pageSize },
      signal,
    });
    const next = page.nextPageStart ?? undefined;
    for (const [i, { action, commentAction, comment }] of page.values.entries()) {
      if (action !== "COMMENTED" || comment === undefined || skip.has(comment.id)) continue;
      skip.add(comment.id);
      if (commentAction !== "ADDED" || !keep(comment)) continue;
      threads.push(comment);
      if (threads.length < paging.limit) continue;
      if (i + 1 < page.values.length) {
        return { values: threads, isLastPage: false, nextPageStart: start + i + 1 };
      }
      if (page.isLastPage || next === undefined) return { values: threads, isLastPage: true };
      return { values: threads, isLastPage: false, nextPageStart: next };
    }
    if (page.isLastPage || next === undefined || page.values.length === 0) {
      return { values: threads, isLastPage: true };
    }
    start = next;
  }
}

/** Lists a pull request's comment threads, all of them or one file's. */
export const listPrComments = defineTool({
  name: "list_pr_comments",
  title: "List pull request comments",
  description:
    "Comment threads of a pull request (or of one file with path): author, text, state, severity, inline anchor and replies.",
  access: READ_ONLY,
  input: PrArgs.extend({
    path: pathArg("Only comments on this file").optional(),
    state: choiceArg(["OPEN", "RESOLVED"] as const, "Only threads in this state (default: all)")
      .optional(),
  }).extend(PagingArgs.shape),
  output: pagedOutput("comments", CommentOut),
  async handler({ project, repo, pr_id, path, state, limit, start }, { bitbucket, signal }) {
    const page = path === undefined
      ? await threadsFromActivities(
        bitbucket,
        prPath(project, repo, pr_id, "/activities"),
        { start, limit },
        (c) => state === undefined || c.state === state,
        signal,
      )
      : await collectPages(
        bitbucket,
        prPath(project, repo, pr_id, "/comments"),
        Comment,
        { start, limit },
        { path, state },
        signal,
      );
    return pagedResult("comments", page, commentOut);
  },
});

/** Lists a pull request's tasks (blocker comments). */
export const listPrTasks = defineTool({
  name: "list_pr_tasks",
  title: "List pull request tasks",
  description: "Tasks (blocker comments) of a pull request; open ones unless state says otherwise.",
  access: READ_ONLY,
  input: PrArgs.extend({
    state: choiceArg(["OPEN", "RESOLVED", "ALL"] as const, "Tasks in this state (default OPEN)")
      .optional(),
  }).extend(PagingArgs.shape),
  output: pagedOutput("tasks", TaskOut),
  handler: listing("tasks", Comment, taskOut, ({ project, repo, pr_id, state = "OPEN" }) => ({
    path: prPath(project, repo, pr_id, "/blocker-comments"),
    query: { state: state === "ALL" ? undefined : state },
  })),
});

/** Comments on a pull request: generally, as a reply, on a file line, or as a task. */
export const addPrComment = defineTool({
  name: "add_pr_comment",
  title: "Comment on a pull request",
  description:
    "Comment on a pull request: general, reply (parent_id), on a file (path) or line (path + line), or a task (task: true).",
  access: safeWrite(
    "adds a comment and changes nothing existing; a task only holds the merge until resolved",
  ),
  input: PrArgs.extend({
    text: textArg("Comment text (Markdown)").min(1),
    parent_id: idArg("Comment id to reply to").optional(),
    path: pathArg("File to comment on, as in the diff").optional(),
    line: z.number().int().positive().optional().describe("Line number in the file; needs path"),
    line_type: choiceArg(
      ["ADDED", "REMOVED", "CONTEXT"] as const,
      "Kind of diff line (default ADDED)",
    ).optional(),
    file_type: choiceArg(
      ["FROM", "TO"] as const,
      "Diff side the line counts in (default FROM for REMOVED, else TO)",
    ).optional(),
    task: z.boolean().optional().describe("Post as a task (blocks merging until resolved)"),
  }),
  output: z.object({ comment: CommentOut }),
  async handler(args, { bitbucket, signal }) {
    const { project, repo, pr_id, text, parent_id, path, line, line_type, file_type, task } = args;
    const refuse = (why: string) => new Error(`Cannot comment on pull request #${pr_id}: ${why}`);
    if (line !== undefined && path === undefined) throw refuse("line needs path");
    if ((line_type !== undefined || file_type !== undefined) && line === undefined) {
      throw refuse("line_type and file_type need line");
    }
    if (parent_id !== undefined && path !== undefined) {
      throw refuse("a reply (parent_id) sits in its parent's thread; give parent_id or path");
    }
    const lineType = line_type ?? "ADDED";
    const anchor = path === undefined ? undefined : line === undefined ? { path } : {
      path,
      line,
      lineType,
      fileType: file_type ?? (lineType === "REMOVED" ? "FROM" : "TO"),
    };
    const { body: comment } = await bitbucket.request({
      method: "POST",
      path: prPath(project, repo, pr_id, "/comments"),
      schema: Comment,
      body: {
        text,
        parent: parent_id === undefined ? undefined : { id: parent_id },
        anchor,
        severity: task ? "BLOCKER" : undefined,
      },
      signal,
    });
    return { comment: commentOut(comment) };
  },
});

/** Resolves or reopens a task. */
export const updatePrTask = defineTool({
  name: "update_pr_task",
  title: "Resolve or reopen a task",
  description: "Resolve (RESOLVED) or reopen (OPEN) a pull request task.",
  access: unsafeWrite("resolving a task lifts a merge check"),
  idempotent: true,
  input: PrArgs.extend({
    task_id: idArg("Task id, from list_pr_tasks"),
    state: choiceArg(["RESOLVED", "OPEN"] as const, "New state"),
  }),
  output: z.object({ task: TaskOut }),
  async handler({ project, repo, pr_id, task_id, state }, { bitbucket, signal }) {
    const path = prPath(project, repo, pr_id) + apiPath`/blocker-comments/${task_id}`;
    const { body: current } = await bitbucket.request({ path, schema: Comment, signal });
    if (current.state === state) return { task: taskOut(current) };
    const { body: updated } = await bitbucket.request({
      method: "PUT",
      path,
      schema: Comment,
      body: { version: current.version, state },
      signal,
    });
    return { task: taskOut(updated) };
  },
});
