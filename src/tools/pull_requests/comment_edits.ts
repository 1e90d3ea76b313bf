/**
 * Changing comments that exist: editing, resolving, deleting, and applying a
 * suggestion. Each reads the comment first, so the write carries the version
 * Bitbucket requires; one changed meanwhile is refused with a 409 that says so.
 */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { requireFeature } from "../../bitbucket/features.ts";
import {
  choiceArg,
  defineTool,
  idArg,
  PrArgs,
  safeWrite,
  textArg,
  unsafeWrite,
  UserOut,
  userOut,
} from "../kit/mod.ts";
import { prPath, readPullRequest } from "../../bitbucket/pull_requests.ts";
import { CommentOut, commentOut } from "./_comment_shape.ts";
import { cleanText, quoted } from "../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** The arguments naming one comment of a pull request. */
const CommentArgs = PrArgs.extend({ comment_id: idArg() });

/** A comment's REST path. */
function commentPath(project: string, repo: string, pr: number, id: number): string {
  return prPath(project, repo, pr) + apiPath`/comments/${id}`;
}

/** Reads a comment as it is now (its version above all). */
async function readComment(
  bitbucket: BitbucketClient,
  path: string,
): Promise<Comment> {
  return (await bitbucket.request({ path, schema: Comment })).body;
}

export const updatePrComment = defineTool({
  name: "update_pr_comment",
  defaultFor: "discuss",
  reach: "repository",
  title: "Edit or resolve a comment",
  description: "Edit a comment, or resolve or reopen its thread or task.",
  access: safeWrite(
    "text and thread resolution can be set back; resolving a task lifts a merge check, so the person is asked first",
  ),
  idempotent: true,
  input: CommentArgs.extend({
    text: textArg("Markdown").min(1).optional(),
    thread_resolved: z.boolean().optional(),
    task_state: choiceArg(["OPEN", "RESOLVED"] as const, "Task state").optional(),
  }),
  output: z.object({ comment: CommentOut }),
  async confirm({ project, repo, pr_id, comment_id, task_state }, { bitbucket }) {
    if (task_state !== "RESOLVED") return undefined;
    const current = await readComment(bitbucket, commentPath(project, repo, pr_id, comment_id));
    return {
      message: `Resolve task ${comment_id} ${
        quoted(excerpt(current.text))
      } of pull request #${pr_id} in ${project}/${repo} (version ${current.version}), lifting the merge check it holds`,
      version: current.version,
    };
  },
  async handler(args, { bitbucket, confirmed }) {
    const { project, repo, pr_id, comment_id, text, thread_resolved, task_state } = args;
    const action = `update comment ${comment_id} of pull request #${pr_id}`;
    if ([text, thread_resolved, task_state].every((v) => v === undefined)) {
      throw new Error(
        `Cannot ${action}: nothing to change (hint: give text, thread_resolved or task_state)`,
      );
    }
    // Below 8.9 a thread resolution is taken and ignored.
    if (thread_resolved !== undefined) await requireFeature(bitbucket, "threadResolution", action);
    const path = commentPath(project, repo, pr_id, comment_id);
    const current = await readComment(bitbucket, path);
    if (task_state !== undefined && current.severity !== "BLOCKER") {
      throw new Error(
        `Cannot ${action}: it is a comment, not a task, so it has no task state (hint: thread_resolved resolves a discussion)`,
      );
    }
    const change = {
      text: text === current.text ? undefined : text,
      threadResolved: thread_resolved === (current.threadResolved ?? false)
        ? undefined
        : thread_resolved,
      state: task_state === current.state ? undefined : task_state,
    };
    if (Object.values(change).every((v) => v === undefined)) {
      return { comment: commentOut(current) };
    }
    const { body: updated } = await bitbucket.request({
      method: "PUT",
      path,
      schema: Comment,
      body: { version: confirmed?.version ?? current.version, ...change },
    }).catch(rethrowDuring(`${action} (at version ${confirmed?.version ?? current.version})`));
    return { comment: commentOut(updated) };
  },
});

export const deletePrComment = defineTool({
  name: "delete_pr_comment",
  reach: "repository",
  title: "Delete a comment",
  description: "Delete a comment that has no replies.",
  access: unsafeWrite("the comment is gone for everyone and cannot be restored"),
  input: CommentArgs,
  output: z.object({
    deleted: z.object({ id: z.number().int(), author: UserOut, text: z.string() }),
  }),
  async confirm({ project, repo, pr_id, comment_id }, { bitbucket }) {
    const current = await readComment(
      bitbucket,
      commentPath(project, repo, pr_id, comment_id),
    );
    const who = quoted(current.author.displayName ?? current.author.name);
    return {
      message: `Delete comment ${comment_id} ${
        quoted(excerpt(current.text))
      } by ${who} on pull request #${pr_id} in ${project}/${repo} (version ${current.version}) for everyone`,
      version: current.version,
    };
  },
  async handler({ project, repo, pr_id, comment_id }, { bitbucket, confirmed }) {
    const path = commentPath(project, repo, pr_id, comment_id);
    const current = await readComment(bitbucket, path);
    await bitbucket.request({
      method: "DELETE",
      path,
      query: { version: confirmed?.version ?? current.version },
      schema: z.unknown(),
    }).catch(rethrowDuring(`delete comment ${comment_id} of pull request #${pr_id}`));
    return {
      deleted: { id: current.id, author: userOut(current.author), text: cleanText(current.text) },
    };
  },
});

/** The start of a text as its reader sees it (cleaned), for a sentence that quotes it. */
function excerpt(raw: string): string {
  const text = Array.from(cleanText(raw));
  return text.length <= 80 ? text.join("") : `${text.slice(0, 79).join("")}…`;
}

export const applyPrSuggestion = defineTool({
  name: "apply_pr_suggestion",
  reach: "repository",
  title: "Apply a suggestion",
  description: "Commit a comment's suggested change to the source branch.",
  access: unsafeWrite(
    "commits to the source branch: the code under review changes and a commit cannot be taken back",
  ),
  input: CommentArgs.extend({
    suggestion_index: z.number().int().min(0).optional().describe(
      "Which suggestion (default 0)",
    ),
    message: textArg().optional(),
  }),
  output: z.object({
    commit: z.object({
      id: z.string().optional().describe("The source branch's new head"),
      branch: z.string(),
      previous: z.string().optional().describe("Its head before"),
    }),
  }),
  async confirm({ project, repo, pr_id, comment_id, suggestion_index }, { bitbucket }) {
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
    return {
      message: `Commit suggestion ${suggestion_index ?? 0} of comment ${comment_id} onto ${
        quoted(pr.fromRef.displayId)
      }, the source branch of pull request #${pr_id} ${
        quoted(pr.title)
      } in ${project}/${repo} (version ${pr.version})`,
      version: pr.version,
      // Applying it moves the source branch on, so a replayed yes finds it changed.
      binding: {
        what: `the head of ${quoted(pr.fromRef.displayId)}`,
        state: pr.fromRef.latestCommit ?? "unknown",
      },
    };
  },
  async handler(args, { bitbucket, confirmed }) {
    const { project, repo, pr_id, comment_id, suggestion_index } = args;
    // Real servers read the commit message from `message` and refuse an empty one.
    const message = args.message ?? `Apply suggestion from comment ${comment_id}`;
    if (message.trim() === "") {
      throw new Error(
        `Cannot apply the suggestion of comment ${comment_id}: message is empty (hint: leave it out for the default, or write one)`,
      );
    }
    const comment = await readComment(
      bitbucket,
      commentPath(project, repo, pr_id, comment_id),
    );
    const before = (await readPullRequest(bitbucket, project, repo, pr_id)).pr;
    // Both versions must match the server's, so the suggestion lands where it was made.
    await bitbucket.request({
      method: "POST",
      path: commentPath(project, repo, pr_id, comment_id) + "/apply-suggestion",
      schema: z.unknown(),
      body: {
        commentVersion: comment.version,
        pullRequestVersion: confirmed?.version ?? before.version,
        suggestionIndex: suggestion_index ?? 0,
        message,
      },
    }).catch(rethrowDuring(`apply the suggestion of comment ${comment_id}`));
    // Bitbucket answers 204: the new head is read from the pull request.
    const after = (await readPullRequest(bitbucket, project, repo, pr_id)).pr;
    return {
      commit: {
        id: after.fromRef.latestCommit,
        branch: visibleId(after.fromRef.displayId),
        previous: before.fromRef.latestCommit,
      },
    };
  },
});
